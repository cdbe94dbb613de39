import { bigint, index, pgTable, text } from 'drizzle-orm/pg-core';
import { instant, calendarDate } from './columns.js';
import { processes } from './processes.js';

/**
 * Every ETA the service has recorded for a process, oldest first (by `id`): written by sync in the
 * statement that writes the process, whenever the ETA it stores differs from the one stored before
 * (a withdrawn ETA is an entry with a null `eta`). Migration 0018 started it from the ETAs stored then.
 */
export const processEtaHistory = pgTable(
  'process_eta_history',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    processNumero: text('process_numero')
      .notNull()
      .references(() => processes.numero, { onDelete: 'cascade' }),
    eta: calendarDate('eta'),
    recordedAt: instant('recorded_at').notNull(),
  },
  (table) => [index('process_eta_history_process_idx').on(table.processNumero, table.id)],
);
