import { check, index, pgTable, primaryKey, smallint, text } from 'drizzle-orm/pg-core';
import { CONTAINER_NUMBER_FORMAT } from '../../common/iso6346.js';
import { matches } from './columns.js';
import { processes } from './processes.js';

export const processContainers = pgTable(
  'process_containers',
  {
    processNumero: text('process_numero')
      .notNull()
      .references(() => processes.numero, { onDelete: 'cascade' }),
    containerNumber: text('container_number').notNull(),
    /** Keeps the operations system's order for `summary.containers`. */
    position: smallint('position').notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.processNumero, table.containerNumber] }),
    index('process_containers_container_number_idx').on(table.containerNumber),
    check('process_containers_number_format', matches(table.containerNumber, CONTAINER_NUMBER_FORMAT)),
  ],
);
