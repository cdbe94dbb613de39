import { Module, type DynamicModule, type Type } from '@nestjs/common';
import { ClockModule } from '../../common/clock.module.js';
import { HostResolver, SystemHostResolver } from '../security/host-resolver.js';
import { SecretCipher } from '../security/secret-cipher.js';
import { WebhookTargetPolicy } from '../security/webhook-target-policy.js';
import { DeliveryPacer } from './delivery-pacer.js';
import { DeliveryRepository } from './delivery.repository.js';
import { HttpWebhookTransport } from './http-webhook-transport.js';
import { OutOfOrderSender } from './out-of-order-sender.js';
import { WebhookDeliverer } from './webhook-deliverer.js';
import { WebhookTransport } from './webhook-transport.js';

/**
 * The {@link WebhookDeliverer} and what it needs, wherever it runs: on the service's own thread or
 * on a delivery thread. `AppConfig` and `DatabaseService` come from the global modules of either.
 */
@Module({})
export class WebhookDeliveryModule {
  /**
   * @param host exports what delivery takes from its surroundings: the API's `RequestActivity`
   * (deliveries give way to requests) and the `DeliveryMetrics` its attempts are counted in.
   */
  static within(host: Type | DynamicModule): DynamicModule {
    return {
      module: WebhookDeliveryModule,
      imports: [ClockModule, host],
      providers: [
        DeliveryRepository,
        WebhookDeliverer,
        DeliveryPacer,
        OutOfOrderSender,
        SecretCipher,
        WebhookTargetPolicy,
        { provide: HostResolver, useClass: SystemHostResolver },
        {
          provide: WebhookTransport,
          inject: [WebhookTargetPolicy],
          useFactory: (policy: WebhookTargetPolicy) => new HttpWebhookTransport(policy),
        },
      ],
      exports: [WebhookDeliverer, DeliveryRepository, OutOfOrderSender, SecretCipher, WebhookTargetPolicy],
    };
  }
}
