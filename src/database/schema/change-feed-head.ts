import { sql } from 'drizzle-orm';
import { bigint, boolean, check, pgTable } from 'drizzle-orm/pg-core';
import { instant } from './columns.js';

/** The feed's one-row head: the last position given out and the last one retention deleted. */
export const changeFeedHead = pgTable(
  'change_feed_head',
  {
    id: boolean('id').primaryKey().default(true),
    lastPosition: bigint('last_position', { mode: 'number' }).notNull().default(0),
    lastRecordedAt: instant('last_recorded_at'),
    prunedThrough: bigint('pruned_through', { mode: 'number' }).notNull().default(0),
  },
  (table) => [check('change_feed_head_single_row', sql`${table.id}`)],
);
