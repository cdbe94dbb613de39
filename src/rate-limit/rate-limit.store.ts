import type { ThrottlerStorage } from '@nestjs/throttler';

/** What the throttler's storage answers (the package does not export the type by name). */
export type ThrottlerStorageRecord = Awaited<ReturnType<ThrottlerStorage['increment']>>;

/** A fixed window of `limit` counted events per key, from the first event on. */
export interface LimitWindow {
  key: string;
  limit: number;
  windowMs: number;
}

/** Refused: `retryAfterMs` until the fullest window ends; `window` is its index in the request. */
export type ReserveResult = { allowed: true } | { allowed: false; retryAfterMs: number; window: number };

/**
 * Where rate-limit counters live: Redis when configured (shared by every instance), memory
 * otherwise. Two uses: the per-user request limit ({@link increment}, `@nestjs/throttler`'s
 * storage contract) and the failed-login limit ({@link reserve}, {@link release}, {@link reset}),
 * which counts an attempt before the password is checked and gives it back when it did not fail,
 * so that concurrent attempts cannot slip past the limit.
 *
 * Only the throttler's types are used: its runtime is CommonJS requiring the ESM-only
 * `@nestjs/common` 12, which Node 20 loads but Jest (before Node 24.9) cannot, so the guard is ours.
 */
export abstract class RateLimitStore implements ThrottlerStorage {
  /**
   * `@nestjs/throttler`'s contract: counts a hit in a fixed window of `ttl` ms and blocks the key
   * once it has more than `limit` hits, for `blockDuration` ms (0: until the window ends).
   * Times in the record are whole seconds.
   */
  abstract increment(
    key: string,
    ttl: number,
    limit: number,
    blockDuration: number,
  ): Promise<ThrottlerStorageRecord>;

  /**
   * Counts one event in every window, unless any of them already holds its `limit`: then nothing
   * is counted and the answer says when the fullest window ends. Atomic.
   */
  abstract reserve(windows: LimitWindow[]): Promise<ReserveResult>;

  /** Takes back one event counted by {@link reserve} from each key (never below zero). */
  abstract release(keys: string[]): Promise<void>;

  /** Forgets the keys' counts. */
  abstract reset(keys: string[]): Promise<void>;
}

/** Whole seconds, rounded up, for `Retry-After` and the throttler's record. */
export function toSeconds(milliseconds: number): number {
  return Math.max(0, Math.ceil(milliseconds / 1000));
}
