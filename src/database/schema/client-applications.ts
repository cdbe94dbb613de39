import { index, json, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { instant } from './columns.js';
import { users } from './users.js';

/**
 * A client application: a user's other system (an ERP, a BI job) signing in with OAuth 2.0 client
 * credentials, with the scopes it was given and the visibility its creator had at creation. Its
 * secret is stored only as a SHA-256 (`secret_hash`); the one it replaced keeps working until
 * `previous_secret_expires_at`.
 */
export const clientApplications = pgTable(
  'client_applications',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    ownerId: uuid('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    clientId: text('client_id').notNull(),
    name: text('name').notNull(),
    scopes: json('scopes').$type<string[]>().notNull(),
    /** The customers its tokens may see, as the creator saw them; null: every customer (staff). */
    customerIds: json('customer_ids').$type<string[]>(),
    secretHash: text('secret_hash').notNull(),
    previousSecretHash: text('previous_secret_hash'),
    previousSecretExpiresAt: instant('previous_secret_expires_at'),
    createdAt: instant('created_at').notNull(),
    updatedAt: instant('updated_at').notNull(),
    lastUsedAt: instant('last_used_at'),
  },
  (table) => [
    uniqueIndex('client_applications_client_id_key').on(table.clientId),
    index('client_applications_owner_idx').on(table.ownerId, table.createdAt),
  ],
);
