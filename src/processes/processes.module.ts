import { Module } from '@nestjs/common';
import { MetricsModule } from '../metrics/metrics.module.js';
import { ClockModule } from '../common/clock.module.js';
import { OperationsModule } from '../operations/operations.module.js';
import { RedisConnection } from '../redis/redis.connection.js';
import { VisibilityModule } from '../visibility/visibility.module.js';
import { REDIS_KEY_PREFIX } from '../redis/redis-key-prefix.js';
import { EnrichmentCacheStore } from './enrichment/enrichment-cache.store.js';
import { EnrichmentMetrics, PrometheusEnrichmentMetrics } from './enrichment/enrichment.metrics.js';
import { MemoryEnrichmentCacheStore } from './enrichment/memory-enrichment-cache.store.js';
import { ProcessEnrichmentService } from './enrichment/process-enrichment.service.js';
import { RedisEnrichmentCacheStore } from './enrichment/redis-enrichment-cache.store.js';
import { ProcessesController } from './processes.controller.js';
import { ProcessesRepository } from './processes.repository.js';
import { ProcessesService } from './processes.service.js';

@Module({
  imports: [ClockModule, OperationsModule, MetricsModule, VisibilityModule],
  controllers: [ProcessesController],
  providers: [
    ProcessesService,
    ProcessesRepository,
    ProcessEnrichmentService,
    { provide: EnrichmentMetrics, useClass: PrometheusEnrichmentMetrics },
    {
      // Shared by every instance when Redis is configured; each instance's own otherwise.
      provide: EnrichmentCacheStore,
      inject: [RedisConnection, REDIS_KEY_PREFIX],
      useFactory: (redis: RedisConnection, keyPrefix: string): EnrichmentCacheStore =>
        redis.client === null
          ? new MemoryEnrichmentCacheStore()
          : new RedisEnrichmentCacheStore(redis, keyPrefix),
    },
  ],
})
export class ProcessesModule {}
