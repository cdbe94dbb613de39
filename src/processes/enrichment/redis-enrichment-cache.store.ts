import { Logger } from '@nestjs/common';
import type { RedisConnection } from '../../redis/redis.connection.js';
import { redisFailureWarnings } from '../../redis/redis-failure-warnings.js';
import { EnrichmentCacheStore, type CachedEnrichment } from './enrichment-cache.store.js';

/**
 * Details cached in Redis, shared by every instance: one fetch from the operations system serves
 * them all. A JSON value a process, expiring with the stale window. Redis failing is never the
 * client's problem: a read is a miss (the detail is fetched live) and a write is skipped.
 */
export class RedisEnrichmentCacheStore extends EnrichmentCacheStore {
  constructor(
    private readonly redis: RedisConnection,
    private readonly keyPrefix: string,
    private readonly failures = redisFailureWarnings(new Logger(RedisEnrichmentCacheStore.name)),
  ) {
    super();
  }

  async get(numero: string): Promise<CachedEnrichment | undefined> {
    try {
      const value = await this.redis.run((client) => client.get(this.keyOf(numero)));
      return value === null ? undefined : (JSON.parse(value) as CachedEnrichment);
    } catch (error) {
      this.failures.warn('detail cache reads are misses', error);
      return undefined;
    }
  }

  async set(numero: string, entry: CachedEnrichment, ttlMs: number): Promise<void> {
    if (ttlMs <= 0) return;
    try {
      await this.redis.run((client) =>
        client.set(this.keyOf(numero), JSON.stringify(entry), 'PX', Math.ceil(ttlMs)),
      );
    } catch (error) {
      this.failures.warn('detail cache writes are skipped', error);
    }
  }

  private keyOf(numero: string): string {
    return `${this.keyPrefix}enrichment:${numero}`;
  }
}
