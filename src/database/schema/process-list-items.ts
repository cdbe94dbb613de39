import { sql } from 'drizzle-orm';
import { pgTable, smallint, text } from 'drizzle-orm/pg-core';
import { processes } from './processes.js';

/**
 * Each process as a list item, the JSON the API sends, rendered by PostgreSQL when sync writes the
 * process (its events, its containers or its customer's name) rather than on every read: a page of
 * 100 items aggregated 2,000 events per request. `process_list_item` (migration 0015) is the one
 * rendering; sync calls it, never writes `body` itself.
 */
/**
 * The rendering `process_list_item` gives now: the migration that last changed the item's shape.
 * An item stored with another shape is rendered anew by a read and by the backfill, while the
 * release before that migration goes on serving it. A migration that changes the shape replaces
 * the function and sets the column's default to its own number (drizzle-kit writes that statement
 * once this constant changes).
 */
export const LIST_ITEM_SHAPE = 18;

export const processListItems = pgTable('process_list_items', {
  numero: text('numero')
    .primaryKey()
    .references(() => processes.numero, { onDelete: 'cascade' }),
  body: text('body').notNull(),
  /** {@link LIST_ITEM_SHAPE} when rendered; every writer leaves it to the default. */
  shape: smallint('shape').notNull().default(LIST_ITEM_SHAPE),
  /** What a page's ETag hashes in place of the item's text (SHA-256 of 100 items took ~1 ms of CPU). */
  digest: text('digest')
    .notNull()
    .generatedAlwaysAs(sql`md5(body)`),
});
