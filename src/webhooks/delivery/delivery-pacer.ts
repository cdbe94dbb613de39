import { Injectable } from '@nestjs/common';
import { RequestActivity } from '../../common/http/request-activity.js';

/** The API's event loop's busy share above which deliveries give way to requests. */
export const LOADED_LOOP_SHARE = 0.7;
/** While they give way, deliveries start one at a time, this far apart: at most 10 a second. */
export const YIELDING_INTERVAL_MS = 100;

/**
 * Requests first: webhook delivery shares the cores with the API (and, when it runs in the
 * service's own thread, the event loop), and a burst of deliveries at full speed would take most
 * of them. While requests are arriving and the API's loop is loaded, each delivery waits for a turn, one every {@link YIELDING_INTERVAL_MS}; with the loop
 * idle enough, or no request recently, deliveries go as fast as they can. Receivers then see more
 * lag under load, and the API's latency stays what it is without webhooks.
 */
@Injectable()
export class DeliveryPacer {
  private lastTurn: Promise<void> = Promise.resolve();

  constructor(private readonly activity: RequestActivity) {}

  /** Resolves when the next delivery may start (at once when `signal` aborts: shutdown). */
  turn(signal: AbortSignal): Promise<void> {
    if (!this.yieldingToRequests()) return Promise.resolve();
    const turn = this.lastTurn.then(() => pause(YIELDING_INTERVAL_MS, signal));
    this.lastTurn = turn;
    return turn;
  }

  private yieldingToRequests(): boolean {
    return this.activity.servingRequests() && this.activity.loopShare() > LOADED_LOOP_SHARE;
  }
}

/** Resolves after `ms`, or as soon as `signal` aborts. */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const end = (): void => {
      clearTimeout(timer);
      signal.removeEventListener('abort', end);
      resolve();
    };
    const timer = setTimeout(end, ms);
    signal.addEventListener('abort', end, { once: true });
    if (signal.aborted) end();
  });
}
