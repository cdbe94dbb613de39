import { Global, Module } from '@nestjs/common';
import { Registry } from 'prom-client';
import { OperationsModule } from '../operations/operations.module.js';
import { SyncModule } from '../sync/sync.module.js';
import { ChangeFeedMetrics } from './change-feed.metrics.js';
import { EnrichmentMetrics, PrometheusEnrichmentMetrics } from './enrichment.metrics.js';
import { HttpMetrics } from './http.metrics.js';
import { MetricsController } from './metrics.controller.js';
import { createMetricsRegistry } from './metrics.registry.js';
import { OperationsMetrics } from './operations.metrics.js';
import { RateLimitMetrics } from './rate-limit.metrics.js';
import { SyncStateGauges } from './sync-state.gauges.js';
import { PrometheusSyncMetrics, SyncMetrics } from './sync.metrics.js';

/**
 * `GET /metrics` over a registry of the service's own. Global, so that the features report
 * through small injectables ({@link EnrichmentMetrics}, {@link SyncMetrics},
 * {@link RateLimitMetrics}, {@link ChangeFeedMetrics}) without importing this module.
 */
@Global()
@Module({
  imports: [OperationsModule, SyncModule],
  controllers: [MetricsController],
  providers: [
    { provide: Registry, useFactory: createMetricsRegistry },
    HttpMetrics,
    RateLimitMetrics,
    ChangeFeedMetrics,
    OperationsMetrics,
    SyncStateGauges,
    { provide: EnrichmentMetrics, useClass: PrometheusEnrichmentMetrics },
    { provide: SyncMetrics, useClass: PrometheusSyncMetrics },
  ],
  exports: [Registry, HttpMetrics, RateLimitMetrics, ChangeFeedMetrics, EnrichmentMetrics, SyncMetrics],
})
export class MetricsModule {}
