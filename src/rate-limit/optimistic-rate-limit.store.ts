import type { Clock } from '../common/clock.js';
import {
  RateLimitStore,
  toSeconds,
  type LimitWindow,
  type ReserveResult,
  type ThrottlerStorageRecord,
} from './rate-limit.store.js';

/** Below this share of its limit, a counter's answer is known without waiting for the shared count. */
export const SURE_SHARE = 0.5;
/** Views kept before the ended ones are swept out. */
const SWEEP_ABOVE = 10_000;

/** What this instance last heard of a shared counter, and the hits it has sent since without an answer. */
interface CounterView {
  hits: number;
  windowEndsAtMs: number;
  unanswered: number;
}

/**
 * The per-user limit without a round trip to the shared store on most requests. Each hit is still
 * counted there, but while this instance's view of the counter (its last answer, plus the hits
 * sent since) is below {@link SURE_SHARE} of the limit, the request is let through at once and
 * the count goes on behind it. Closer to the limit, or with no view of the current window, every
 * hit waits for the shared count, so the limit holds as exactly as before: what other instances
 * count meanwhile is in each answer, and only their hits of the last round trip can be missing
 * from a view, far from the limit.
 *
 * The failed-login limit ({@link reserve}, {@link release}, {@link reset}) is exact at every
 * attempt and passes through.
 */
export class OptimisticRateLimitStore extends RateLimitStore {
  private readonly views = new Map<string, CounterView>();

  constructor(
    private readonly shared: RateLimitStore,
    private readonly clock: Clock,
  ) {
    super();
  }

  async increment(
    key: string,
    ttl: number,
    limit: number,
    blockDuration: number,
  ): Promise<ThrottlerStorageRecord> {
    const nowMs = this.clock.now().getTime();
    const view = this.views.get(key);
    const counted = this.count(key, ttl, limit, blockDuration);
    if (
      view === undefined ||
      nowMs >= view.windowEndsAtMs ||
      view.hits + view.unanswered > limit * SURE_SHARE
    ) {
      return counted;
    }
    // The shared store answers even while Redis fails (it counts in memory then); were it to
    // throw, only this one hit's count would be lost, far below the limit.
    counted.catch(() => undefined);
    return {
      totalHits: view.hits + view.unanswered,
      timeToExpire: toSeconds(view.windowEndsAtMs - nowMs),
      isBlocked: false,
      timeToBlockExpire: 0,
    };
  }

  reserve(windows: LimitWindow[]): Promise<ReserveResult> {
    return this.shared.reserve(windows);
  }

  release(keys: string[]): Promise<void> {
    return this.shared.release(keys);
  }

  reset(keys: string[]): Promise<void> {
    return this.shared.reset(keys);
  }

  /** Counts the hit in the shared store; its answer is the view from then on. */
  private async count(
    key: string,
    ttl: number,
    limit: number,
    blockDuration: number,
  ): Promise<ThrottlerStorageRecord> {
    const sent = this.views.get(key);
    if (sent !== undefined) sent.unanswered++;
    try {
      const record = await this.shared.increment(key, ttl, limit, blockDuration);
      const view = this.views.get(key);
      if (view === undefined && this.views.size >= SWEEP_ABOVE) this.sweep(this.clock.now().getTime());
      this.views.set(key, {
        hits: record.totalHits,
        // Whole seconds, rounded up: a view may outlive its window by under a second, counting
        // its hits a little longer, never fewer.
        windowEndsAtMs: this.clock.now().getTime() + record.timeToExpire * 1000,
        unanswered: view === undefined ? 0 : Math.max(0, view.unanswered - 1),
      });
      return record;
    } catch (error) {
      const view = this.views.get(key);
      if (view !== undefined) view.unanswered = Math.max(0, view.unanswered - 1);
      throw error;
    }
  }

  private sweep(nowMs: number): void {
    for (const [key, view] of this.views) {
      if (view.windowEndsAtMs <= nowMs && view.unanswered === 0) this.views.delete(key);
    }
  }
}
