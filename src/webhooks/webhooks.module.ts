import { Module } from '@nestjs/common';
import { MetricsModule } from '../metrics/metrics.module.js';
import { ChangesModule } from '../changes/changes.module.js';
import { ClockModule } from '../common/clock.module.js';
import { RequestActivityModule } from '../common/http/request-activity.js';
import { DeliveryPacer, EventLoopLoad, NodeEventLoopLoad } from './delivery/delivery-pacer.js';
import { DeliveriesRetention } from './delivery/deliveries-retention.js';
import { DeliveryRepository } from './delivery/delivery.repository.js';
import { HttpWebhookTransport } from './delivery/http-webhook-transport.js';
import { WebhookDeliverer } from './delivery/webhook-deliverer.js';
import { WebhookTransport } from './delivery/webhook-transport.js';
import { WebhookMetrics } from './webhook.metrics.js';
import { HostResolver, SystemHostResolver } from './security/host-resolver.js';
import { SecretCipher } from './security/secret-cipher.js';
import { WebhookTargetPolicy } from './security/webhook-target-policy.js';
import { WebhooksController } from './webhooks.controller.js';
import { WebhooksRepository } from './webhooks.repository.js';
import { WebhooksService } from './webhooks.service.js';

/** Webhooks: subscriptions to the change feed (`/api/webhooks`) and their delivery. */
@Module({
  imports: [ClockModule, ChangesModule, MetricsModule, RequestActivityModule],
  controllers: [WebhooksController],
  providers: [
    WebhooksRepository,
    WebhooksService,
    SecretCipher,
    WebhookTargetPolicy,
    { provide: HostResolver, useClass: SystemHostResolver },
    DeliveryRepository,
    DeliveriesRetention,
    WebhookDeliverer,
    DeliveryPacer,
    { provide: EventLoopLoad, useClass: NodeEventLoopLoad },
    WebhookMetrics,
    {
      provide: WebhookTransport,
      inject: [WebhookTargetPolicy],
      useFactory: (policy: WebhookTargetPolicy) => new HttpWebhookTransport(policy),
    },
  ],
})
export class WebhooksModule {}
