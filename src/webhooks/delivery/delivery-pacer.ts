import { Injectable } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import { RequestActivity } from '../../common/http/request-activity.js';

/** The API's event loop's busy share above which deliveries give way to requests. */
export const LOADED_LOOP_SHARE = 0.7;
/** While they give way, each lane's deliveries start one at a time, this far apart: at most 10 a second. */
export const YIELDING_INTERVAL_MS = 100;
/**
 * How many answering subscriptions the pacer remembers, the least recently answered forgotten
 * first: a deleted subscription is never heard of again, and a forgotten one that still answers
 * is back in the first lane after its next 2xx.
 */
export const REMEMBERED_ANSWERING = 10_000;

/**
 * Requests first: webhook delivery shares the cores with the API (and, when it runs in the
 * service's own thread, the event loop), and a burst of deliveries at full speed would take most
 * of them. While requests are arriving and the API's loop is loaded, each delivery waits for a
 * turn, one every {@link YIELDING_INTERVAL_MS} in its lane; with the loop idle enough, or no request
 * recently, deliveries go as fast as they can. Receivers then see more lag under load, and the
 * API's latency stays what it is without webhooks.
 *
 * Two lanes, so that receivers that do not answer hold back only their own subscriptions: one for
 * the subscriptions whose receiver answered their last attempt here with a 2xx, one for the others
 * (failing, never answering, or not tried here yet). A hundred dead receivers' attempts, started or
 * retried together, queue in the second lane while a healthy subscription's next change takes the
 * first lane's next turn, as soon as it would with no dead receiver at all. In the second lane the
 * turn comes before the subscription reads its next change, so that such a burst's reads are paced
 * too (they would queue before the healthy ones' for the database); in the first, only once there
 * is a change to send, so that passing over other customers' changes takes no turn.
 */
@Injectable()
export class DeliveryPacer {
  private readonly answering = new Lane();
  private readonly others = new Lane();
  /** The subscriptions whose receiver answered their last attempt here with a 2xx. */
  private readonly answered = new LRUCache<string, true>({ max: REMEMBERED_ANSWERING });

  constructor(private readonly activity: RequestActivity) {}

  /**
   * Resolves when the subscription may read its next change: at once in the first lane (at once
   * too when `signal` aborts: shutdown).
   */
  beforeReading(subscriptionId: string, signal: AbortSignal): Promise<void> {
    return this.answered.has(subscriptionId) ? Promise.resolve() : this.turn(this.others, signal);
  }

  /** Resolves when the subscription may send the change it read: at once in the second lane. */
  beforeSending(subscriptionId: string, signal: AbortSignal): Promise<void> {
    return this.answered.has(subscriptionId) ? this.turn(this.answering, signal) : Promise.resolve();
  }

  /** What the subscription's receiver did with its last attempt: its lane from now on. */
  attempted(subscriptionId: string, succeeded: boolean): void {
    if (succeeded) this.answered.set(subscriptionId, true);
    else this.answered.delete(subscriptionId);
  }

  private turn(lane: Lane, signal: AbortSignal): Promise<void> {
    if (!this.yieldingToRequests()) return Promise.resolve();
    return pause(lane.nextTurnIn(performance.now()), signal);
  }

  private yieldingToRequests(): boolean {
    return this.activity.servingRequests() && this.activity.loopShare() > LOADED_LOOP_SHARE;
  }
}

/** Turns {@link YIELDING_INTERVAL_MS} apart, each given to whoever asks next. */
class Lane {
  private nextTurnAt = 0;

  /** How long until the turn asked for now (0: at once), the lane's next being that much later. */
  nextTurnIn(now: number): number {
    const turnAt = Math.max(now, this.nextTurnAt);
    this.nextTurnAt = turnAt + YIELDING_INTERVAL_MS;
    return turnAt - now;
  }
}

/** Resolves after `ms`, or as soon as `signal` aborts. */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  if (ms <= 0 || signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const end = (): void => {
      clearTimeout(timer);
      signal.removeEventListener('abort', end);
      resolve();
    };
    const timer = setTimeout(end, ms);
    signal.addEventListener('abort', end, { once: true });
  });
}
