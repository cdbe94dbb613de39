import { Module } from '@nestjs/common';
import { MetricsModule } from '../metrics/metrics.module.js';
import { ChangesModule } from '../changes/changes.module.js';
import { ClockModule } from '../common/clock.module.js';
import { VisibilityModule } from '../visibility/visibility.module.js';
import { DeliveriesRetention } from './delivery/deliveries-retention.js';
import { DeliveryRunner } from './delivery/delivery-runner.js';
import { ServiceDeliveryHostModule } from './delivery/service-delivery-host.module.js';
import { WebhookDeliveryModule } from './delivery/webhook-delivery.module.js';
import { WebhookSubscriptionMetrics } from './webhook.metrics.js';
import { WebhooksController } from './webhooks.controller.js';
import { WebhooksRepository } from './webhooks.repository.js';
import { WebhooksService } from './webhooks.service.js';

/** Webhooks: subscriptions to the change feed (`/api/webhooks`) and their delivery. */
@Module({
  imports: [
    ClockModule,
    ChangesModule,
    VisibilityModule,
    MetricsModule,
    ServiceDeliveryHostModule,
    WebhookDeliveryModule.within(ServiceDeliveryHostModule),
  ],
  controllers: [WebhooksController],
  providers: [
    WebhooksRepository,
    WebhooksService,
    DeliveriesRetention,
    DeliveryRunner,
    WebhookSubscriptionMetrics,
  ],
})
export class WebhooksModule {}
