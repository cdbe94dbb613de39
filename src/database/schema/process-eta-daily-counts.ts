import { integer, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { PROCESS_STATUSES } from '../../domain/process.vocabulary.js';
import { calendarDate } from './columns.js';

/**
 * How many processes each customer has per status and ETA, so that a list filtered by an ETA
 * range (and at most status) sums a row a day instead of counting its processes: "what arrives
 * this week" is seven rows. Processes without an ETA are not counted. Kept by statement triggers
 * on `processes` in the same transaction as every write (migration 0020); never written directly.
 */
export const processEtaDailyCounts = pgTable(
  'process_eta_daily_counts',
  {
    customerId: text('customer_id').notNull(),
    status: text('status', { enum: PROCESS_STATUSES }).notNull(),
    eta: calendarDate('eta').notNull(),
    total: integer('total').notNull(),
  },
  // ETA first: one index serves a customer's range of days and every customer's (a week is a few
  // thousand entries on a million processes), and a first sync feeds one index, not two.
  (table) => [primaryKey({ columns: [table.eta, table.customerId, table.status] })],
);
