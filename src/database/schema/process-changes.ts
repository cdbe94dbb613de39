import { sql } from 'drizzle-orm';
import { bigint, check, index, json, pgTable, text } from 'drizzle-orm/pg-core';
import { CHANGE_KINDS } from '../../domain/change-kinds.js';
import { PROCESS_STATUSES } from '../../domain/process.vocabulary.js';
import { instant, oneOf } from './columns.js';

/**
 * The change feed: what sync changed in each process, in the order it committed. `position` is
 * gap-free and assigned under the row lock of `change_feed_head`, which each writing transaction
 * holds until it commits, so a reader never sees a position after one that commits later.
 */
export const processChanges = pgTable(
  'process_changes',
  {
    position: bigint('position', { mode: 'number' }).primaryKey(),
    recordedAt: instant('recorded_at').notNull(),
    customerId: text('customer_id').notNull(),
    numero: text('numero').notNull(),
    kind: text('kind', { enum: CHANGE_KINDS }).notNull(),
    status: text('status', { enum: PROCESS_STATUSES }).notNull(),
    updatedAt: instant('updated_at').notNull(),
    /**
     * What the kind adds: `previousStatus`, the `follow` event, or `customsChannel`. `json`, not
     * `jsonb`: kept as the recorder wrote it (compact) and copied into `body` as it is, never
     * queried inside.
     */
    details: json('details').$type<Record<string, unknown>>(),
    /**
     * The change as the feed sends it, cursor included, rendered once when it is recorded (by
     * `change_json`, migration 0011) rather than on every read: a page is the join of these.
     */
    body: text('body')
      .notNull()
      .generatedAlwaysAs(sql`change_json(position, recorded_at, kind, numero, status, updated_at, details)`),
  },
  (table) => [
    // A customer's feed from a position, read in order from the index at any depth.
    index('process_changes_customer_position_idx').on(table.customerId, table.position),
    // `since` and retention; recorded_at grows with position, so the first row here is the earliest.
    index('process_changes_recorded_at_idx').on(table.recordedAt, table.position),
    check('process_changes_kind_check', oneOf('kind', CHANGE_KINDS)),
  ],
);
