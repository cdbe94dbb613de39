import { integer, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import {
  CUSTOMS_CHANNEL_FILTERS,
  PROCESS_STATUSES,
  PROCESS_TYPES,
  TRANSPORT_MODES,
} from '../../domain/process.vocabulary.js';

/**
 * How many processes each customer has per status, type, mode and customs channel, so that a list
 * filtered by those alone is totalled from a few hundred rows at most instead of counting its
 * processes. Kept exact by statement triggers on `processes` in the same transaction as every
 * write (migrations 0004 and 0008); never written directly.
 */
export const processCounts = pgTable(
  'process_counts',
  {
    customerId: text('customer_id').notNull(),
    status: text('status', { enum: PROCESS_STATUSES }).notNull(),
    type: text('type', { enum: PROCESS_TYPES }).notNull(),
    mode: text('mode', { enum: TRANSPORT_MODES }).notNull(),
    /** `NONE` for a process without a channel: a key column cannot be null. */
    customsChannel: text('customs_channel', { enum: CUSTOMS_CHANNEL_FILTERS }).notNull(),
    total: integer('total').notNull(),
  },
  (table) => [
    primaryKey({
      columns: [table.customerId, table.status, table.type, table.mode, table.customsChannel],
    }),
  ],
);
