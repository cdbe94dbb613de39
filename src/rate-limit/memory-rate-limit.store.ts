import { LRUCache } from 'lru-cache';
import { Clock } from '../common/clock.js';
import {
  RateLimitStore,
  toSeconds,
  type LimitWindow,
  type ReserveResult,
  type ThrottlerStorageRecord,
} from './rate-limit.store.js';

interface Counter {
  hits: number;
  expiresAt: number;
  /** The key refuses hits until then (0: not blocked). */
  blockedUntil: number;
}

/**
 * Bounds memory under a spray of distinct keys (user names, addresses); the least recently used
 * counters go first.
 */
const MAX_KEYS = 100_000;

/** Counters of one instance, on the injected clock (tests move time instead of waiting). */
export class MemoryRateLimitStore extends RateLimitStore {
  private readonly counters = new LRUCache<string, Counter>({ max: MAX_KEYS });

  constructor(private readonly clock: Clock) {
    super();
  }

  increment(key: string, ttl: number, limit: number, blockDuration: number): Promise<ThrottlerStorageRecord> {
    const now = this.now();
    const counter = this.live(key, now) ?? this.start(key, ttl, now);
    if (counter.blockedUntil > now) return Promise.resolve(record(counter, now));
    counter.hits += 1;
    if (counter.hits > limit) {
      counter.blockedUntil = blockDuration > 0 ? now + blockDuration : counter.expiresAt;
      // A block longer than the window keeps the key alive as long as the block.
      counter.expiresAt = Math.max(counter.expiresAt, counter.blockedUntil);
    }
    return Promise.resolve(record(counter, now));
  }

  reserve(windows: LimitWindow[]): Promise<ReserveResult> {
    const now = this.now();
    let refused: ReserveResult = { allowed: true };
    windows.forEach((window, index) => {
      const counter = this.live(window.key, now);
      if (counter === undefined || counter.hits < window.limit) return;
      const retryAfterMs = counter.expiresAt - now;
      if (refused.allowed || retryAfterMs > refused.retryAfterMs) {
        refused = { allowed: false, retryAfterMs, window: index };
      }
    });
    if (!refused.allowed) return Promise.resolve(refused);
    for (const window of windows) {
      (this.live(window.key, now) ?? this.start(window.key, window.windowMs, now)).hits += 1;
    }
    return Promise.resolve({ allowed: true });
  }

  release(keys: string[]): Promise<void> {
    const now = this.now();
    for (const key of keys) {
      const counter = this.live(key, now);
      if (counter !== undefined && counter.hits > 0) counter.hits -= 1;
    }
    return Promise.resolve();
  }

  reset(keys: string[]): Promise<void> {
    for (const key of keys) this.counters.delete(key);
    return Promise.resolve();
  }

  private now(): number {
    return this.clock.now().getTime();
  }

  private live(key: string, now: number): Counter | undefined {
    const counter = this.counters.get(key);
    return counter !== undefined && counter.expiresAt > now ? counter : undefined;
  }

  private start(key: string, windowMs: number, now: number): Counter {
    const counter = { hits: 0, expiresAt: now + windowMs, blockedUntil: 0 };
    this.counters.set(key, counter);
    return counter;
  }
}

function record(counter: Counter, now: number): ThrottlerStorageRecord {
  const blocked = counter.blockedUntil > now;
  return {
    totalHits: counter.hits,
    timeToExpire: toSeconds(counter.expiresAt - now),
    isBlocked: blocked,
    timeToBlockExpire: blocked ? toSeconds(counter.blockedUntil - now) : 0,
  };
}
