import { sql } from 'drizzle-orm';
import { bigint, check, index, integer, json, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { instant, oneOf } from './columns.js';
import { users } from './users.js';

export const WEBHOOK_STATUSES = ['ACTIVE', 'PAUSED', 'DISABLED'] as const;
export type WebhookStatus = (typeof WEBHOOK_STATUSES)[number];

/**
 * A user's webhook subscription: where the feed is delivered, what of it (visibility fixed at
 * creation, kinds), and how far delivery has got. `position` is the last change delivered (or
 * passed over as not for this subscription); the next attempt of the change after it is due at
 * `next_attempt_at` (null: now), after `failed_attempts` failures. One instance at a time works a
 * subscription: the one whose lease has not expired.
 */
export const webhookSubscriptions = pgTable(
  'webhook_subscriptions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    ownerId: uuid('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    url: text('url').notNull(),
    description: text('description'),
    /** The change kinds delivered; null: every kind, those added later included. */
    kinds: json('kinds').$type<string[]>(),
    /** The customers whose changes are delivered, as the creator saw them; null: every customer (staff). */
    customerIds: json('customer_ids').$type<string[]>(),
    status: text('status', { enum: WEBHOOK_STATUSES }).notNull().default('ACTIVE'),
    disabledReason: text('disabled_reason'),
    position: bigint('position', { mode: 'number' }).notNull(),
    failedAttempts: integer('failed_attempts').notNull().default(0),
    nextAttemptAt: instant('next_attempt_at'),
    /** The signing secret, AES-256-GCM encrypted with the configured key. */
    secret: text('secret').notNull(),
    /**
     * Where the release before `webhook_retired_secrets` kept the secret a rotation replaced: no
     * longer read, kept so that release works on this schema during a rolling upgrade; to drop in a
     * later release.
     */
    previousSecret: text('previous_secret'),
    previousSecretExpiresAt: instant('previous_secret_expires_at'),
    leaseOwner: text('lease_owner'),
    leaseExpiresAt: instant('lease_expires_at'),
    createdAt: instant('created_at').notNull(),
    updatedAt: instant('updated_at').notNull(),
  },
  (table) => [
    index('webhook_subscriptions_owner_idx').on(table.ownerId, table.createdAt),
    // The deliverers' claim: active subscriptions by when they are next due.
    index('webhook_subscriptions_due_idx')
      .on(table.nextAttemptAt)
      .where(sql`${table.status} = 'ACTIVE'`),
    check('webhook_subscriptions_status_check', oneOf('status', WEBHOOK_STATUSES)),
    check('webhook_subscriptions_failed_attempts_check', sql`${table.failedAttempts} >= 0`),
  ],
);
