import { Injectable, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { RequestActivity } from '../../common/http/request-activity.js';

/** The event loop's busy share above which deliveries give way to requests. */
export const LOADED_LOOP_SHARE = 0.7;
/** While they give way, deliveries start one at a time, this far apart: at most 50 a second. */
export const YIELDING_INTERVAL_MS = 20;
/** How often the event loop's busy share is sampled. */
export const LOOP_SAMPLE_MS = 100;

/** How busy the event loop has been. */
export abstract class EventLoopLoad {
  /** The loop's busy share (0 to 1) since the previous call. */
  abstract sample(): number;
}

/** Node's event-loop utilization between successive samples. */
@Injectable()
export class NodeEventLoopLoad extends EventLoopLoad {
  private previous = performance.eventLoopUtilization();

  sample(): number {
    const current = performance.eventLoopUtilization();
    const share = performance.eventLoopUtilization(current, this.previous).utilization;
    this.previous = current;
    return share;
  }
}

/**
 * Requests first: webhook delivery shares the event loop and the cores with the API, and a burst
 * of deliveries at full speed would take most of both. While requests are arriving and the loop
 * is loaded, each delivery waits for a turn, one every {@link YIELDING_INTERVAL_MS}; with the loop
 * idle enough, or no request recently, deliveries go as fast as they can. Receivers then see more
 * lag under load, and the API's latency stays what it is without webhooks.
 */
@Injectable()
export class DeliveryPacer implements OnModuleInit, OnModuleDestroy {
  private loopShare = 0;
  private sampler: NodeJS.Timeout | null = null;
  private lastTurn: Promise<void> = Promise.resolve();

  constructor(
    private readonly activity: RequestActivity,
    private readonly loopLoad: EventLoopLoad,
  ) {}

  onModuleInit(): void {
    this.sampler = setInterval(() => (this.loopShare = this.loopLoad.sample()), LOOP_SAMPLE_MS);
    this.sampler.unref();
  }

  onModuleDestroy(): void {
    if (this.sampler !== null) clearInterval(this.sampler);
  }

  /** Resolves when the next delivery may start (at once when `signal` aborts: shutdown). */
  turn(signal: AbortSignal): Promise<void> {
    if (!this.yieldingToRequests()) return Promise.resolve();
    const turn = this.lastTurn.then(() => pause(YIELDING_INTERVAL_MS, signal));
    this.lastTurn = turn;
    return turn;
  }

  private yieldingToRequests(): boolean {
    return this.activity.servingRequests() && this.loopShare > LOADED_LOOP_SHARE;
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
