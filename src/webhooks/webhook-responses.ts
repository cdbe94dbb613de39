import { encodeCursor } from '../changes/change-cursor.js';
import { toUtcInstant } from '../common/instant.js';
import type {
  WebhookDeliveriesPageResponseDto,
  WebhookDeliveryResponseDto,
  WebhookResponseDto,
} from './dto/webhook.response.dto.js';
import type { DeliveriesPage } from './webhooks.service.js';
import type { WebhookDelivery, WebhookSubscription } from './webhook-subscription.js';

export function webhookResponse(subscription: WebhookSubscription): WebhookResponseDto {
  return {
    id: subscription.id,
    url: subscription.url,
    description: subscription.description,
    kinds: subscription.kinds,
    status: subscription.status,
    disabledReason: subscription.disabledReason,
    position: encodeCursor(subscription.position),
    failedAttempts: subscription.failedAttempts,
    nextAttemptAt: instantOrNull(subscription.nextAttemptAt),
    createdAt: toUtcInstant(subscription.createdAt),
    updatedAt: toUtcInstant(subscription.updatedAt),
  };
}

export function deliveriesPageResponse(page: DeliveriesPage): WebhookDeliveriesPageResponseDto {
  const last = page.deliveries.at(-1);
  return {
    data: page.deliveries.map(deliveryResponse),
    next: page.hasMore && last !== undefined ? String(last.id) : null,
    hasMore: page.hasMore,
  };
}

function deliveryResponse(delivery: WebhookDelivery): WebhookDeliveryResponseDto {
  return {
    id: String(delivery.id),
    messageId: delivery.messageId,
    kind: delivery.kind,
    attempt: delivery.attempt,
    attemptedAt: toUtcInstant(delivery.attemptedAt),
    responseStatus: delivery.responseStatus,
    durationMs: delivery.durationMs,
    error: delivery.error,
    nextAttemptAt: instantOrNull(delivery.nextAttemptAt),
  };
}

const instantOrNull = (date: Date | null): string | null => (date === null ? null : toUtcInstant(date));
