import { Injectable, Logger } from '@nestjs/common';
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import { WEBHOOK_STATUSES } from '../database/schema.js';
import { DeliveryRepository } from './delivery/delivery.repository.js';
import type { DeliveryOutcome } from './delivery/delivery-outcomes.js';

/**
 * `webhook_deliveries_total{outcome}` and `webhook_delivery_lag_seconds` (this instance's
 * attempts), and `webhook_subscriptions{status}`, read from the database when scraped.
 */
@Injectable()
export class WebhookMetrics {
  private readonly logger = new Logger(WebhookMetrics.name);
  private readonly deliveries: Counter<'outcome'>;
  private readonly lag: Histogram;

  constructor(registry: Registry, repository: DeliveryRepository) {
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
    const subscriptions: Gauge<'status'> = new Gauge({
      name: 'webhook_subscriptions',
      help: 'Webhook subscriptions by status (ACTIVE, PAUSED, DISABLED), across every instance',
      labelNames: ['status'],
      registers: [registry],
      collect: async () => {
        try {
          const counts = await repository.countByStatus();
          for (const status of WEBHOOK_STATUSES) subscriptions.set({ status }, counts[status]);
        } catch (error) {
          this.logger.warn({ msg: 'metrics could not count webhook subscriptions', error: String(error) });
        }
      },
    });
  }

  attempted(outcome: DeliveryOutcome): void {
    this.deliveries.inc({ outcome });
  }

  delivered(recordedAtMs: number, nowMs: number): void {
    this.lag.observe(Math.max(0, nowMs - recordedAtMs) / 1000);
  }
}
