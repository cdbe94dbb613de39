import { Module } from '@nestjs/common';
import { MetricsModule } from '../metrics/metrics.module.js';
import { Clock } from '../common/clock.js';
import { ClockModule } from '../common/clock.module.js';
import { RedisConnection } from '../redis/redis.connection.js';
import { RedisModule } from '../redis/redis.module.js';
import { REDIS_KEY_PREFIX } from '../redis/redis-key-prefix.js';
import { LoginRateLimiter } from './login-rate-limiter.js';
import { MemoryRateLimitStore } from './memory-rate-limit.store.js';
import { OptimisticRateLimitStore } from './optimistic-rate-limit.store.js';
import { RateLimitMetrics } from './rate-limit.metrics.js';
import { RateLimitStore } from './rate-limit.store.js';
import { RedisRateLimitStore } from './redis-rate-limit.store.js';

/**
 * Rate-limit counters (Redis when configured, memory otherwise) and the failed-login limiter.
 * With Redis, the per-user limit waits for Redis only near the limit (OptimisticRateLimitStore).
 * The per-user guard is registered in AppModule, after the JWT guard, because it needs the user.
 */
@Module({
  imports: [ClockModule, RedisModule, MetricsModule],
  providers: [
    {
      provide: RateLimitStore,
      inject: [RedisConnection, REDIS_KEY_PREFIX, Clock],
      useFactory: (redis: RedisConnection, keyPrefix: string, clock: Clock): RateLimitStore => {
        const memory = new MemoryRateLimitStore(clock);
        if (redis.client === null) return memory;
        return new OptimisticRateLimitStore(new RedisRateLimitStore(redis, keyPrefix, memory), clock);
      },
    },
    LoginRateLimiter,
    RateLimitMetrics,
  ],
  exports: [RateLimitStore, LoginRateLimiter, RateLimitMetrics],
})
export class RateLimitModule {}
