import { pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
import { customers } from './customers.js';
import { users } from './users.js';

export const userCustomers = pgTable(
  'user_customers',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    customerId: text('customer_id')
      .notNull()
      .references(() => customers.id),
  },
  (table) => [primaryKey({ columns: [table.userId, table.customerId] })],
);
