import { index, integer, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { PROCESS_STATUSES } from '../../domain/process.vocabulary.js';
import { calendarDate } from './columns.js';

/**
 * The same totals per UTC day of `updated_at`, so that a list filtered by an updated range (and
 * at most status) sums whole days from here and counts only the range's partial first and last
 * days in `processes`. Kept by the same kind of triggers (migration 0006); never written directly.
 */
export const processDailyCounts = pgTable(
  'process_daily_counts',
  {
    customerId: text('customer_id').notNull(),
    status: text('status', { enum: PROCESS_STATUSES }).notNull(),
    day: calendarDate('day').notNull(),
    total: integer('total').notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.customerId, table.status, table.day] }),
    // Staff lists: every customer's totals over a range of days.
    index('process_daily_counts_day_idx').on(table.day, table.status),
  ],
);
