import {
  Injectable,
  Logger,
  type BeforeApplicationShutdown,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import { RequestActivity } from '../../common/http/request-activity.js';
import { AppConfig } from '../../config/app.config.js';
import { PrometheusDeliveryMetrics } from './delivery-metrics.js';
import { DeliveryRepository } from './delivery.repository.js';
import { DeliveryThread } from './thread/delivery-thread.js';
import { WebhookDeliverer } from './webhook-deliverer.js';

/** A delivery thread that ends by itself is started again after this long. */
const RESTART_AFTER_MS = 5000;
/** At shutdown, a delivery thread has this long to end: its attempts are cut short at once. */
const STOP_GRACE_MS = 10_000;
/** Until a webhook is active, the runner looks for one this often. */
const LOOK_FOR_WEBHOOKS_EVERY_MS = 5000;

/**
 * Runs webhook delivery where the configuration says (`WEBHOOK_DELIVERY`): on a thread of its own,
 * so that deliveries never take the API's event loop nor share its compiled code, or on the
 * service's own thread (PGlite, whose database only this thread reaches; the tests, which drive
 * the deliverer themselves). A thread holds some 55 MB of its own, so it starts with the first
 * active webhook, not before: a deployment without webhooks never pays for it.
 */
@Injectable()
export class DeliveryRunner implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(DeliveryRunner.name);
  private thread: DeliveryThread | null = null;
  private lookingForWebhooks: NodeJS.Timeout | null = null;
  private shuttingDown = false;

  constructor(
    private readonly config: AppConfig,
    private readonly deliverer: WebhookDeliverer,
    private readonly repository: DeliveryRepository,
    private readonly activity: RequestActivity,
    private readonly metrics: PrometheusDeliveryMetrics,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (this.config.webhooks.delivery === 'in-process') return this.deliverer.start();
    this.thread = new DeliveryThread(
      { config: this.config, activity: this.activity.shared },
      this.metrics,
      this.logger,
      { restartAfterMs: RESTART_AFTER_MS, stopGraceMs: STOP_GRACE_MS },
    );
    await this.startThreadOnceActive(this.thread);
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.shuttingDown = true;
    if (this.lookingForWebhooks !== null) clearTimeout(this.lookingForWebhooks);
    await (this.thread === null ? this.deliverer.stop() : this.thread.stop());
  }

  private async startThreadOnceActive(thread: DeliveryThread): Promise<void> {
    // A database out of reach counts as no webhook yet: the next look will tell.
    const active = await this.repository.countByStatus().then(
      (counts) => counts.ACTIVE > 0,
      () => false,
    );
    if (this.shuttingDown) return;
    if (active) return thread.start();
    this.lookingForWebhooks = setTimeout(
      () => void this.startThreadOnceActive(thread),
      LOOK_FOR_WEBHOOKS_EVERY_MS,
    );
    this.lookingForWebhooks.unref();
  }
}
