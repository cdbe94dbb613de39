import { Injectable, Logger } from '@nestjs/common';
import { Gauge, Registry } from 'prom-client';
import { WEBHOOK_STATUSES } from '../database/schema.js';
import { DeliveryRepository } from './delivery/delivery.repository.js';

/** `webhook_subscriptions{status}`, read from the database when scraped. */
@Injectable()
export class WebhookSubscriptionMetrics {
  private readonly logger = new Logger(WebhookSubscriptionMetrics.name);

  constructor(registry: Registry, repository: DeliveryRepository) {
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
}
