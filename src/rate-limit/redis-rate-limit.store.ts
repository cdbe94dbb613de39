import { Logger } from '@nestjs/common';
import type { RedisConnection } from '../redis/redis.connection.js';
import { redisFailureWarnings } from '../redis/redis-failure-warnings.js';
import type { MemoryRateLimitStore } from './memory-rate-limit.store.js';
import {
  RateLimitStore,
  toSeconds,
  type LimitWindow,
  type ReserveResult,
  type ThrottlerStorageRecord,
} from './rate-limit.store.js';

/**
 * KEYS[1] hits, KEYS[2] block marker; ARGV: window ms, limit, block ms (0: to the window's end).
 * Returns { hits, ms left in the window, ms left blocked (0: not blocked) }.
 */
const INCREMENT = `
local blocked = redis.call('PTTL', KEYS[2])
if blocked > 0 then
  return { tonumber(redis.call('GET', KEYS[1]) or '0'), math.max(redis.call('PTTL', KEYS[1]), 0), blocked }
end
local hits = redis.call('INCR', KEYS[1])
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  ttl = tonumber(ARGV[1])
  redis.call('PEXPIRE', KEYS[1], ttl)
end
if hits > tonumber(ARGV[2]) then
  local block = tonumber(ARGV[3])
  if block <= 0 then block = ttl end
  redis.call('SET', KEYS[2], '1', 'PX', block)
  return { hits, ttl, block }
end
return { hits, ttl, 0 }
`;

/**
 * KEYS: counters; ARGV: the limit and window (ms) of each key in turn. Counts one event in every
 * key unless one is full; returns { 0, 0 }, or { ms until the fullest window ends, its 1-based index }.
 */
const RESERVE = `
local wait = 0
local fullest = 0
for i, key in ipairs(KEYS) do
  if tonumber(redis.call('GET', key) or '0') >= tonumber(ARGV[2 * i - 1]) then
    local ttl = redis.call('PTTL', key)
    if ttl < 0 then
      ttl = tonumber(ARGV[2 * i])
      redis.call('PEXPIRE', key, ttl)
    end
    if ttl > wait then
      wait = ttl
      fullest = i
    end
  end
end
if wait > 0 then return { wait, fullest } end
for i, key in ipairs(KEYS) do
  redis.call('INCR', key)
  if redis.call('PTTL', key) < 0 then redis.call('PEXPIRE', key, ARGV[2 * i]) end
end
return { 0, 0 }
`;

/** KEYS: counters; takes one back from each, never below zero, keeping its expiry. */
const RELEASE = `
for _, key in ipairs(KEYS) do
  if tonumber(redis.call('GET', key) or '0') > 0 then redis.call('DECR', key) end
end
return 0
`;

/**
 * Counters in Redis, shared by every instance; each operation is one Lua script, so it is atomic
 * across instances. While Redis fails (down, silent, or skipped by the connection's circuit) the
 * instance counts in memory instead: limits stay in force, per instance, and no request is ever
 * refused or failed because Redis is down. The multi-key scripts assume a single Redis (not a
 * cluster).
 */
export class RedisRateLimitStore extends RateLimitStore {
  constructor(
    private readonly redis: RedisConnection,
    private readonly keyPrefix: string,
    private readonly fallback: MemoryRateLimitStore,
    private readonly failures = redisFailureWarnings(new Logger(RedisRateLimitStore.name)),
  ) {
    super();
  }

  async increment(
    key: string,
    ttl: number,
    limit: number,
    blockDuration: number,
  ): Promise<ThrottlerStorageRecord> {
    const hitsKey = this.keyOf(key);
    try {
      const [hits, ttlMs, blockedMs] = (await this.redis.run((client) =>
        client.eval(INCREMENT, 2, hitsKey, `${hitsKey}:blocked`, ttl, limit, blockDuration),
      )) as [number, number, number];
      return {
        totalHits: hits,
        timeToExpire: toSeconds(ttlMs),
        isBlocked: blockedMs > 0,
        timeToBlockExpire: toSeconds(blockedMs),
      };
    } catch (error) {
      this.failures.warn('rate limits are counted per instance', error);
      return this.fallback.increment(key, ttl, limit, blockDuration);
    }
  }

  async reserve(windows: LimitWindow[]): Promise<ReserveResult> {
    try {
      const [retryAfterMs, fullest] = (await this.redis.run((client) =>
        client.eval(
          RESERVE,
          windows.length,
          ...windows.map((window) => this.keyOf(window.key)),
          ...windows.flatMap((window) => [window.limit, window.windowMs]),
        ),
      )) as [number, number];
      return retryAfterMs > 0 ? { allowed: false, retryAfterMs, window: fullest - 1 } : { allowed: true };
    } catch (error) {
      this.failures.warn('rate limits are counted per instance', error);
      return this.fallback.reserve(windows);
    }
  }

  async release(keys: string[]): Promise<void> {
    try {
      await this.redis.run((client) =>
        client.eval(RELEASE, keys.length, ...keys.map((key) => this.keyOf(key))),
      );
    } catch (error) {
      this.failures.warn('rate limits are counted per instance', error);
      await this.fallback.release(keys);
    }
  }

  async reset(keys: string[]): Promise<void> {
    try {
      await this.redis.run((client) => client.del(...keys.map((key) => this.keyOf(key))));
    } catch (error) {
      this.failures.warn('rate limits are counted per instance', error);
      await this.fallback.reset(keys);
    }
  }

  private keyOf(key: string): string {
    return `${this.keyPrefix}rate-limit:${key}`;
  }
}
