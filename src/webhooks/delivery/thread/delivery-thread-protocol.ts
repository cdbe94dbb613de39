import { AppConfig } from '../../../config/app.config.js';
import type { DeliveryTally } from '../delivery-metrics.js';

/** What the service hands its delivery thread when it starts it. */
export interface DeliveryThreadData {
  /** The service's configuration as loaded (a generated JWT secret, and so the derived key, included). */
  config: AppConfig;
  /** The API's `RequestActivity` record, which the thread reads to give way to requests. */
  activity: SharedArrayBuffer;
}

/** From the service: stop delivering, then end. */
export const STOP = 'stop';

/** From the thread: attempts made since the last report, for the service's `/metrics`. */
export interface TallyMessage {
  tally: DeliveryTally;
}

/**
 * The configuration as the thread receives it: structured cloning dropped its class and turned
 * its Buffer into a plain Uint8Array.
 */
export function configFromThreadData(cloned: AppConfig): AppConfig {
  return Object.assign(new AppConfig(), cloned, {
    webhooks: { ...cloned.webhooks, secretKey: Buffer.from(cloned.webhooks.secretKey) },
  });
}
