import { Injectable } from '@nestjs/common';
import { Counter, Histogram, Registry } from 'prom-client';
import type { DeliveryOutcome } from './delivery-outcomes.js';

/** Attempts by outcome, and each success's lag: what a delivery thread reports to the service. */
export interface DeliveryTally {
  attempts: Partial<Record<DeliveryOutcome, number>>;
  lagsSeconds: number[];
}

/** Where the deliverer counts its attempts. */
export abstract class DeliveryMetrics {
  abstract attempted(outcome: DeliveryOutcome): void;
  /** A change delivered: its lag from recording to the receiver's 2xx. */
  abstract delivered(recordedAtMs: number, nowMs: number): void;
}

export const lagSeconds = (recordedAtMs: number, nowMs: number): number =>
  Math.max(0, nowMs - recordedAtMs) / 1000;

/**
 * `webhook_deliveries_total{outcome}` and `webhook_delivery_lag_seconds`: this instance's
 * attempts, made on its own thread or reported by its delivery thread.
 */
@Injectable()
export class PrometheusDeliveryMetrics extends DeliveryMetrics {
  private readonly deliveries: Counter<'outcome'>;
  private readonly lag: Histogram;

  constructor(registry: Registry) {
    super();
    this.deliveries = new Counter({
      name: 'webhook_deliveries_total',
      help: 'Webhook delivery attempts made by this instance, by outcome (success, http-error, redirect, timeout, network-error, target-refused)',
      labelNames: ['outcome'],
      registers: [registry],
    });
    this.lag = new Histogram({
      name: 'webhook_delivery_lag_seconds',
      help: 'From a change’s recording to its successful delivery to a webhook (retries included)',
      buckets: [0.1, 0.5, 1, 2, 5, 10, 30, 60, 300, 3600, 86400],
      registers: [registry],
    });
  }

  attempted(outcome: DeliveryOutcome): void {
    this.deliveries.inc({ outcome });
  }

  delivered(recordedAtMs: number, nowMs: number): void {
    this.lag.observe(lagSeconds(recordedAtMs, nowMs));
  }

  add(tally: DeliveryTally): void {
    for (const [outcome, count] of Object.entries(tally.attempts)) this.deliveries.inc({ outcome }, count);
    for (const seconds of tally.lagsSeconds) this.lag.observe(seconds);
  }
}
