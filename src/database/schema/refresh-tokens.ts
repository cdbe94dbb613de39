import { index, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { instant } from './columns.js';
import { signIns } from './sign-ins.js';

/** The refresh tokens of a sign-in, by the SHA-256 of the token (the token itself is never stored). */
export const refreshTokens = pgTable(
  'refresh_tokens',
  {
    tokenHash: text('token_hash').primaryKey(),
    signInId: uuid('sign_in_id')
      .notNull()
      .references(() => signIns.id, { onDelete: 'cascade' }),
    issuedAt: instant('issued_at').notNull(),
    /** Set when the token is exchanged for the next one: presenting it again is a reuse. */
    usedAt: instant('used_at'),
  },
  (table) => [index('refresh_tokens_sign_in_id_idx').on(table.signInId)],
);
