import { index, pgTable, uuid } from 'drizzle-orm/pg-core';
import { instant } from './columns.js';
import { users } from './users.js';

/**
 * A sign-in: what one login starts and its refresh tokens continue, until `expiresAt` at the
 * latest (an absolute lifetime, however often it is refreshed). `endedAt` is set by a logout and
 * by the reuse of a spent refresh token, which ends the whole sign-in.
 */
export const signIns = pgTable(
  'sign_ins',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    startedAt: instant('started_at').notNull(),
    expiresAt: instant('expires_at').notNull(),
    endedAt: instant('ended_at'),
  },
  (table) => [index('sign_ins_user_id_idx').on(table.userId)],
);
