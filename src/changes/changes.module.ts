import { Module } from '@nestjs/common';
import { MetricsModule } from '../metrics/metrics.module.js';
import { ClockModule } from '../common/clock.module.js';
import { AppConfig } from '../config/app.config.js';
import { RedisConnection } from '../redis/redis.connection.js';
import { RedisModule } from '../redis/redis.module.js';
import { REDIS_KEY_PREFIX } from '../redis/redis-key-prefix.js';
import { VisibilityModule } from '../visibility/visibility.module.js';
import { ChangeRetention } from './change-retention.js';
import { ChangeStreamLeases, MemoryChangeStreamLeases } from './change-stream-leases.js';
import { ChangeStreamHub } from './change-stream.hub.js';
import { ChangesController } from './changes.controller.js';
import { ChangesRepository } from './changes.repository.js';
import { ChangesService } from './changes.service.js';
import { RedisChangeStreamLeases } from './redis-change-stream-leases.js';
import { ChangeFeedMetrics } from './change-feed.metrics.js';

/** The change feed: `GET /api/changes`, its live stream, and the retention of recorded changes. */
@Module({
  imports: [ClockModule, RedisModule, MetricsModule, VisibilityModule],
  controllers: [ChangesController],
  providers: [
    ChangesRepository,
    ChangesService,
    ChangeStreamHub,
    ChangeRetention,
    ChangeFeedMetrics,
    {
      provide: ChangeStreamLeases,
      inject: [RedisConnection, REDIS_KEY_PREFIX, AppConfig],
      useFactory: (redis: RedisConnection, keyPrefix: string, config: AppConfig): ChangeStreamLeases => {
        const { streamsPerUser, heartbeatSeconds } = config.changes;
        return redis.client === null
          ? new MemoryChangeStreamLeases(streamsPerUser)
          : new RedisChangeStreamLeases(redis, keyPrefix, streamsPerUser, heartbeatSeconds * 1000);
      },
    },
  ],
  // Webhooks start and replay their deliveries where a stream would.
  exports: [ChangeFeedMetrics, ChangesService],
})
export class ChangesModule {}
