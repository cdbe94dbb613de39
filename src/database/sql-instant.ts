import { sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';

const FORMATS = {
  /** The contract's instant, as `toUtcInstant` writes it: `2026-03-14T12:00:00Z`. */
  second: 'YYYY-MM-DD"T"HH24:MI:SS"Z"',
  /** Exact enough to compare with what was stored, e.g. the sync's watermarks. */
  millisecond: 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"',
} as const;

/** A `timestamptz` rendered by PostgreSQL as an RFC 3339 instant in UTC. */
export function sqlUtcInstant(column: SQL | AnyPgColumn, precision: keyof typeof FORMATS = 'second'): SQL {
  // The format is a literal, not a bound parameter: it is part of the statement's text.
  return sql`to_char(${column} AT TIME ZONE 'UTC', ${sql.raw(`'${FORMATS[precision]}'`)})`;
}
