import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { decodeCursor } from '../changes/change-cursor.js';
import { toUtcInstant } from '../common/instant.js';
import type { AuthenticatedUser } from '../domain/authenticated-user.js';
import { ChangesService, type FeedStart } from '../changes/changes.service.js';
import { Clock } from '../common/clock.js';
import { InvalidRequestException, ProblemException } from '../common/problems/problem.exception.js';
import { PROBLEM_TYPES } from '../common/problems/problem-types.js';
import { ProcessVisibility } from '../visibility/process-visibility.js';
import { DeliveryRepository } from './delivery/delivery.repository.js';
import { OutOfOrderSender } from './delivery/out-of-order-sender.js';
import { DELIVERY_ID, type DeliveryLogOutcome } from './dto/webhook.query.dto.js';
import type { CreateWebhookRequestDto, UpdateWebhookRequestDto } from './dto/webhook.request.dto.js';
import { SecretCipher } from './security/secret-cipher.js';
import { newWebhookSecret } from './security/webhook-secret.js';
import { TargetRefusedError, WebhookTargetPolicy } from './security/webhook-target-policy.js';
import {
  REPLACED_SECRET_VALID_MS,
  WEBHOOKS_PER_USER,
  type WebhookDelivery,
  type WebhookSubscription,
} from './webhook-subscription.js';
import { deliveryBody, TEST_MESSAGE_KIND, testMessageBody } from './webhook-message.js';
import { WebhooksRepository } from './webhooks.repository.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A page of the deliveries log, newest first. */
export interface DeliveriesPage {
  deliveries: WebhookDelivery[];
  hasMore: boolean;
}

/**
 * Subscriptions as their owners manage them. A subscription sees what its creator saw at creation;
 * another user's subscription is the same 404 as a missing one.
 */
@Injectable()
export class WebhooksService {
  constructor(
    private readonly repository: WebhooksRepository,
    private readonly changes: ChangesService,
    private readonly policy: WebhookTargetPolicy,
    private readonly cipher: SecretCipher,
    private readonly clock: Clock,
    private readonly deliveryRepository: DeliveryRepository,
    private readonly sender: OutOfOrderSender,
    private readonly visibility: ProcessVisibility,
  ) {}

  async create(
    user: AuthenticatedUser,
    request: CreateWebhookRequestDto,
  ): Promise<{ subscription: WebhookSubscription; secret: string }> {
    await this.assertTarget(request.url);
    const position = await this.changes.streamStart(request);
    const secret = newWebhookSecret();
    const subscription = await this.repository.createWithin(WEBHOOKS_PER_USER, {
      ownerId: user.id,
      url: request.url,
      description: request.description ?? null,
      kinds: request.kinds ?? null,
      customerIds: this.visibility.of(user).customerIds,
      position,
      encryptedSecret: this.cipher.encrypt(secret),
      now: this.clock.now(),
    });
    if (subscription === null) {
      throw new ProblemException(PROBLEM_TYPES.webhookLimitReached, {
        detail: `At most ${WEBHOOKS_PER_USER} webhooks per user: delete one first`,
      });
    }
    return { subscription, secret };
  }

  list(user: AuthenticatedUser): Promise<WebhookSubscription[]> {
    return this.repository.listOwned(user.id);
  }

  async get(user: AuthenticatedUser, id: string): Promise<WebhookSubscription> {
    return found(UUID.test(id) ? await this.repository.findOwned(id, user.id) : null);
  }

  async update(
    user: AuthenticatedUser,
    id: string,
    request: UpdateWebhookRequestDto,
  ): Promise<WebhookSubscription> {
    await this.get(user, id);
    if (request.url !== undefined) await this.assertTarget(request.url);
    return found(await this.repository.update(id, user.id, request, this.clock.now()));
  }

  async delete(user: AuthenticatedUser, id: string): Promise<void> {
    if (!UUID.test(id) || !(await this.repository.delete(id, user.id))) throw notFound();
  }

  /** A new secret; the one it replaces goes on signing for 24 h beside it (as do earlier ones, for their 24 h). */
  async rotateSecret(user: AuthenticatedUser, id: string): Promise<string> {
    await this.get(user, id);
    const secret = newWebhookSecret();
    const now = this.clock.now();
    const replacedExpiresAt = new Date(now.getTime() + REPLACED_SECRET_VALID_MS);
    const rotated = await this.repository.rotateSecret(
      id,
      user.id,
      this.cipher.encrypt(secret),
      replacedExpiresAt,
      now,
    );
    if (!rotated) throw notFound();
    return secret;
  }

  /** Delivery goes back (or on) to `start`, within retention (else 410). */
  async replay(user: AuthenticatedUser, id: string, start: FeedStart): Promise<WebhookSubscription> {
    await this.get(user, id);
    if (start.after === undefined && start.since === undefined) {
      throw new InvalidRequestException([
        { in: 'body', name: 'after', message: 'or since is required: where delivery goes back to' },
      ]);
    }
    const position = await this.changes.streamStart(start);
    return found(await this.repository.replayFrom(id, user.id, position, this.clock.now()));
  }

  async deliveries(
    user: AuthenticatedUser,
    id: string,
    limit: number,
    beforeId: number | null,
    outcome: DeliveryLogOutcome | null,
  ): Promise<DeliveriesPage> {
    await this.get(user, id);
    const rows = await this.repository.deliveries(id, limit + 1, beforeId, outcome);
    return { deliveries: rows.slice(0, limit), hasMore: rows.length > limit };
  }

  /** Sends the test message once, at once, whatever the queue holds; answers its `webhook-id`. */
  async sendTest(user: AuthenticatedUser, id: string): Promise<string> {
    await this.get(user, id);
    const messageId = `test_${randomUUID()}`;
    void this.sender.send({
      subscriptionId: id,
      messageId,
      kind: TEST_MESSAGE_KIND,
      body: testMessageBody(toUtcInstant(this.clock.now())),
    });
    return messageId;
  }

  /**
   * Sends the message of one attempt of the log again, once, with its `webhook-id`, outside the
   * queue; 410 when the change is no longer kept. Answers the `webhook-id`.
   */
  async resend(user: AuthenticatedUser, id: string, deliveryId: string): Promise<string> {
    await this.get(user, id);
    const delivery = DELIVERY_ID.test(deliveryId)
      ? await this.repository.delivery(id, Number(deliveryId))
      : null;
    if (delivery === null) {
      throw new ProblemException(PROBLEM_TYPES.notFound, { detail: 'No such delivery of this webhook' });
    }
    void this.sender.send({
      subscriptionId: id,
      messageId: delivery.messageId,
      kind: delivery.kind,
      body: await this.bodyOf(delivery),
    });
    return delivery.messageId;
  }

  private async bodyOf(delivery: WebhookDelivery): Promise<string> {
    if (delivery.kind === TEST_MESSAGE_KIND) return testMessageBody(toUtcInstant(this.clock.now()));
    const position = decodeCursor(delivery.messageId);
    const change = position === null ? null : await this.deliveryRepository.changeAt(position);
    if (change === null) {
      throw new ProblemException(PROBLEM_TYPES.cursorExpired, {
        detail: 'The change this delivery carried is no longer kept (older than the feed’s retention)',
      });
    }
    return deliveryBody(change.kind, toUtcInstant(new Date(change.recordedAtMs)), change.json);
  }

  private async assertTarget(url: string): Promise<void> {
    try {
      await this.policy.permittedAddresses(url);
    } catch (error) {
      if (!(error instanceof TargetRefusedError)) throw error;
      throw new InvalidRequestException([{ in: 'body', name: 'url', message: error.message }]);
    }
  }
}

function found(subscription: WebhookSubscription | null): WebhookSubscription {
  if (subscription === null) throw notFound();
  return subscription;
}

function notFound(): ProblemException {
  return new ProblemException(PROBLEM_TYPES.notFound, { detail: 'No such webhook' });
}
