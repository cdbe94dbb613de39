import { sql } from 'drizzle-orm';
import { type AnyPgColumn, date, timestamp } from 'drizzle-orm/pg-core';

export const instant = (name: string) => timestamp(name, { withTimezone: true, mode: 'string' });
export const calendarDate = (name: string) => date(name, { mode: 'string' });
/** `column ~ 'pattern'`, from the same regular expression the application validates with. */
export const matches = (column: AnyPgColumn, pattern: RegExp) =>
  sql`${column} ~ ${sql.raw(`'${pattern.source}'`)}`;
/** `column IN (...)` for a closed vocabulary; literals, since CHECK constraints take no parameters. */
export const oneOf = (column: string, values: readonly string[]) =>
  sql.raw(`${column} IN (${values.map((value) => `'${value}'`).join(', ')})`);
