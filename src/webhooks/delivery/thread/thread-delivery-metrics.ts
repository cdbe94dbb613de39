import type { MessagePort } from 'node:worker_threads';
import type { OnApplicationShutdown } from '@nestjs/common';
import { DeliveryMetrics, lagSeconds, type DeliveryTally } from '../delivery-metrics.js';
import type { DeliveryOutcome } from '../delivery-outcomes.js';
import type { TallyMessage } from './delivery-thread-protocol.js';

/** At most this long between an attempt and its count in the service's `/metrics`. */
export const REPORT_EVERY_MS = 100;

/**
 * A delivery thread's metrics, reported to the service that serves `/metrics`: counted here and
 * sent as one message per {@link REPORT_EVERY_MS} at most, not one per attempt.
 */
export class ThreadDeliveryMetrics extends DeliveryMetrics implements OnApplicationShutdown {
  private tally: DeliveryTally = { attempts: {}, lagsSeconds: [] };
  private report: NodeJS.Timeout | null = null;

  constructor(private readonly service: Pick<MessagePort, 'postMessage'>) {
    super();
  }

  attempted(outcome: DeliveryOutcome): void {
    this.tally.attempts[outcome] = (this.tally.attempts[outcome] ?? 0) + 1;
    this.reportSoon();
  }

  delivered(recordedAtMs: number, nowMs: number): void {
    this.tally.lagsSeconds.push(lagSeconds(recordedAtMs, nowMs));
    this.reportSoon();
  }

  /** Whatever is counted and not yet reported goes now. */
  flush(): void {
    if (this.report !== null) clearTimeout(this.report);
    this.report = null;
    const message: TallyMessage = { tally: this.tally };
    this.tally = { attempts: {}, lagsSeconds: [] };
    this.service.postMessage(message);
  }

  onApplicationShutdown(): void {
    if (this.report !== null) this.flush();
  }

  private reportSoon(): void {
    this.report ??= setTimeout(() => this.flush(), REPORT_EVERY_MS);
  }
}
