import { Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import { Clock } from '../../common/clock.js';
import { signingSecrets } from '../security/signing-secrets.js';
import { SecretCipher } from '../security/secret-cipher.js';
import { deliveryHeaders } from '../security/webhook-signature.js';
import type { DeliveryKind } from '../webhook-message.js';
import { DeliveryMetrics } from './delivery-metrics.js';
import { verdictOf } from './delivery-outcomes.js';
import { DeliveryRepository } from './delivery.repository.js';
import { WebhookTransport } from './webhook-transport.js';

/** A message sent once, beside the feed's order: the test message, or a change sent again. */
export interface OutOfOrderMessage {
  subscriptionId: string;
  messageId: string;
  kind: DeliveryKind;
  body: string;
}

/**
 * Sends a message to a subscription once, at once and outside its queue: it neither waits for the
 * change the subscription is on nor holds it back, and its position stays. Signed as deliveries
 * are, with every live secret; the attempt is logged among the deliveries, never retried.
 */
@Injectable()
export class OutOfOrderSender implements OnApplicationShutdown {
  private readonly logger = new Logger(OutOfOrderSender.name);
  private readonly stopping = new AbortController();
  private readonly inFlight = new Set<Promise<void>>();

  constructor(
    private readonly repository: DeliveryRepository,
    private readonly transport: WebhookTransport,
    private readonly cipher: SecretCipher,
    private readonly clock: Clock,
    private readonly metrics: DeliveryMetrics,
  ) {}

  /** Starts sending; the caller answers without waiting. Resolves when the attempt is logged. */
  send(message: OutOfOrderMessage): Promise<void> {
    const sending = this.attempt(message)
      .catch((error: unknown) =>
        this.logger.warn({
          msg: 'an out-of-order webhook message failed',
          webhookId: message.subscriptionId,
          err: error,
        }),
      )
      .finally(() => this.inFlight.delete(sending));
    this.inFlight.add(sending);
    return sending;
  }

  /** Cuts messages in flight short (not logged: never made) and waits for them to end. */
  async onApplicationShutdown(): Promise<void> {
    this.stopping.abort();
    await Promise.allSettled(this.inFlight);
  }

  private async attempt(message: OutOfOrderMessage): Promise<void> {
    const attemptedAt = this.clock.now();
    const target = await this.repository.signingTarget(message.subscriptionId, attemptedAt);
    if (target === null) return;
    const secrets = signingSecrets(this.cipher, target.secret, target.retiredSecrets);
    if (secrets === null) return;
    const timestampSeconds = Math.floor(attemptedAt.getTime() / 1000);
    const outcome = await this.transport.send({
      url: target.url,
      headers: deliveryHeaders(
        { messageId: message.messageId, timestampSeconds, body: message.body },
        secrets,
      ),
      body: message.body,
      signal: this.stopping.signal,
    });
    if (outcome.kind === 'aborted') return;
    const verdict = verdictOf(outcome);
    this.metrics.attempted(verdict.outcome);
    await this.repository.logOutOfOrder(message.subscriptionId, {
      messageId: message.messageId,
      kind: message.kind,
      attempt: 1,
      attemptedAt,
      responseStatus: verdict.responseStatus,
      durationMs: outcome.durationMs,
      error: verdict.error,
      nextAttemptAt: null,
    });
  }
}
