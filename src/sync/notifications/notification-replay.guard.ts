import { Inject, Injectable } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import { RedisConnection } from '../../redis/redis.connection.js';
import { REDIS_KEY_PREFIX } from '../../redis/redis-key-prefix.js';

/** Timestamps are accepted 5 minutes either way: an id older than this cannot come back signed. */
const REMEMBER_SECONDS = 600;

/**
 * Remembers notification ids (`webhook-id`), on every instance through Redis when it is
 * configured, else in this process (and there too when Redis does not answer).
 */
@Injectable()
export class NotificationReplayGuard {
  private readonly seen = new LRUCache<string, true>({ max: 10_000, ttl: REMEMBER_SECONDS * 1000 });

  constructor(
    private readonly redis: RedisConnection,
    @Inject(REDIS_KEY_PREFIX) private readonly keyPrefix: string,
  ) {}

  /** True the first time `id` is seen; false for a replay. */
  async firstSighting(id: string): Promise<boolean> {
    if (this.redis.enabled) {
      const key = `${this.keyPrefix}operations-notification:${id}`;
      const stored = await this.redis
        .run((client) => client.set(key, '1', 'EX', REMEMBER_SECONDS, 'NX'))
        .catch(() => undefined);
      if (stored !== undefined) return stored === 'OK';
    }
    if (this.seen.has(id)) return false;
    this.seen.set(id, true);
    return true;
  }
}
