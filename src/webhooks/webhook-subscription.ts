import type { ChangeKind } from '../domain/change-kinds.js';
import type { WebhookStatus } from '../database/schema.js';
import type { DeliveryKind } from './webhook-message.js';

/** A subscription as the API shows it (never its secret). */
export interface WebhookSubscription {
  id: string;
  url: string;
  description: string | null;
  /** null: every kind. */
  kinds: ChangeKind[] | null;
  status: WebhookStatus;
  disabledReason: string | null;
  /** The last change delivered. */
  position: number;
  failedAttempts: number;
  nextAttemptAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

/** One attempt of the deliveries log. */
export interface WebhookDelivery {
  id: number;
  messageId: string;
  kind: DeliveryKind;
  attempt: number;
  attemptedAt: Date;
  responseStatus: number | null;
  durationMs: number;
  error: string | null;
  nextAttemptAt: Date | null;
}

/** At most this many subscriptions per user. */
export const WEBHOOKS_PER_USER = 10;
/** After a rotation every secret it replaced goes on signing this long. */
export const REPLACED_SECRET_VALID_MS = 24 * 60 * 60 * 1000;
