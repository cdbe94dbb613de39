import { index, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { instant } from './columns.js';
import { webhookSubscriptions } from './webhook-subscriptions.js';

/** Secrets a rotation replaced, each still signing until its `expires_at` (encrypted as `secret` is). */
export const webhookRetiredSecrets = pgTable(
  'webhook_retired_secrets',
  {
    subscriptionId: uuid('subscription_id')
      .notNull()
      .references(() => webhookSubscriptions.id, { onDelete: 'cascade' }),
    secret: text('secret').notNull(),
    expiresAt: instant('expires_at').notNull(),
  },
  (table) => [index('webhook_retired_secrets_subscription_idx').on(table.subscriptionId, table.expiresAt)],
);
