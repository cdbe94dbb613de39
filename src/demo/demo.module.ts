import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module.js';
import { SyncModule } from '../sync/sync.module.js';
import { DemoSeeder } from './demo-seeder.service.js';
import { InitialDataState } from './initial-data.state.js';

/** Demo data and users; exports {@link InitialDataState} for the readiness check. */
@Module({
  imports: [AuthModule, SyncModule],
  providers: [InitialDataState, DemoSeeder],
  exports: [InitialDataState],
})
export class DemoModule {}
