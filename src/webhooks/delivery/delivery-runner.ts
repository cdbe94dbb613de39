import {
  Injectable,
  Logger,
  type BeforeApplicationShutdown,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import { RequestActivity } from '../../common/http/request-activity.js';
import { AppConfig } from '../../config/app.config.js';
import { PrometheusDeliveryMetrics } from './delivery-metrics.js';
import { DeliveryThread } from './thread/delivery-thread.js';
import { WebhookDeliverer } from './webhook-deliverer.js';

/** A delivery thread that ends by itself is started again after this long. */
const RESTART_AFTER_MS = 5000;
/** At shutdown, a delivery thread has this long to end: its attempts are cut short at once. */
const STOP_GRACE_MS = 10_000;

/**
 * Runs webhook delivery where the configuration says (`WEBHOOK_DELIVERY`): on a thread of its own,
 * so that deliveries never take the API's event loop nor share its compiled code, or on the
 * service's own thread (PGlite, whose database only this thread reaches; the tests, which drive
 * the deliverer themselves). The thread starts with the service, whether or not a webhook exists
 * yet: it holds some 55 MB of its own, but started with the first webhook it made that webhook's
 * first delivery wait for its start (seconds: finding the webhook, booting the thread).
 */
@Injectable()
export class DeliveryRunner implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(DeliveryRunner.name);
  private thread: DeliveryThread | null = null;

  constructor(
    private readonly config: AppConfig,
    private readonly deliverer: WebhookDeliverer,
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
    this.thread.start();
  }

  async beforeApplicationShutdown(): Promise<void> {
    await (this.thread === null ? this.deliverer.stop() : this.thread.stop());
  }
}
