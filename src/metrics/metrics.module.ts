import { Module } from '@nestjs/common';
import { Registry } from 'prom-client';
import { HttpMetrics } from './http.metrics.js';
import { MetricsController } from './metrics.controller.js';
import { createMetricsRegistry } from './metrics.registry.js';

/**
 * `GET /metrics` over a registry of the service's own. Each feature declares its metrics in its own
 * module, which imports this one to register them in the {@link Registry}: this module knows no
 * feature.
 */
@Module({
  controllers: [MetricsController],
  providers: [{ provide: Registry, useFactory: createMetricsRegistry }, HttpMetrics],
  exports: [Registry, HttpMetrics],
})
export class MetricsModule {}
