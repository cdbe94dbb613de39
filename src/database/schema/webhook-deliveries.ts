import { bigint, index, integer, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { instant } from './columns.js';
import { webhookSubscriptions } from './webhook-subscriptions.js';

/** Every attempt to deliver a change to a subscription, for its owner to see what happened. */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    subscriptionId: uuid('subscription_id')
      .notNull()
      .references(() => webhookSubscriptions.id, { onDelete: 'cascade' }),
    /** The change's cursor: the `webhook-id` sent. */
    messageId: text('message_id').notNull(),
    /** A change's kind, or the test message's (`WEBHOOK_TEST`). */
    kind: text('kind').notNull(),
    attempt: integer('attempt').notNull(),
    attemptedAt: instant('attempted_at').notNull(),
    responseStatus: integer('response_status'),
    durationMs: integer('duration_ms').notNull(),
    error: text('error'),
    nextAttemptAt: instant('next_attempt_at'),
  },
  (table) => [
    index('webhook_deliveries_subscription_idx').on(table.subscriptionId, table.id.desc()),
    index('webhook_deliveries_attempted_at_idx').on(table.attemptedAt),
  ],
);
