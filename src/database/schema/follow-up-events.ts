import { sql } from 'drizzle-orm';
import { check, index, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { FOLLOW_UP_CODES } from '../../domain/process.vocabulary.js';
import { instant, oneOf } from './columns.js';
import { processes } from './processes.js';

export const followUpEvents = pgTable(
  'follow_up_events',
  {
    processNumero: text('process_numero')
      .notNull()
      .references(() => processes.numero, { onDelete: 'cascade' }),
    id: text('id').notNull(),
    code: text('code', { enum: FOLLOW_UP_CODES }).notNull(),
    description: text('description').notNull(),
    occurredAt: instant('occurred_at').notNull(),
    locationCode: text('location_code'),
    locationName: text('location_name'),
  },
  (table) => [
    primaryKey({ columns: [table.processNumero, table.id] }),
    index('follow_up_events_timeline_idx').on(table.processNumero, table.occurredAt, table.id),
    check('follow_up_events_code_check', oneOf('code', FOLLOW_UP_CODES)),
    check(
      'follow_up_events_location_check',
      sql`(${table.locationCode} IS NULL) = (${table.locationName} IS NULL)`,
    ),
  ],
);
