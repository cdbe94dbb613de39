import { Module } from '@nestjs/common';
import { TerminusModule } from '@nestjs/terminus';
import { DemoModule } from '../demo/demo.module.js';
import { OperationsModule } from '../operations/operations.module.js';
import { SyncModule } from '../sync/sync.module.js';
import { HealthController } from './health.controller.js';
import { ReadinessIndicators } from './readiness.indicators.js';

/** `GET /health/live` and `GET /health/ready`, outside `/api`, no authentication. */
@Module({
  // Readiness logs its own transitions; terminus would log every failed probe as an error.
  imports: [TerminusModule.forRoot({ logger: false }), DemoModule, OperationsModule, SyncModule],
  controllers: [HealthController],
  providers: [ReadinessIndicators],
})
export class HealthModule {}
