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

/**
 * A `timestamptz` as whole Unix milliseconds, as text. Floored: rounding would move an instant in
 * a second's last half millisecond into the next second, which `sqlUtcInstant` writes as the one before.
 */
export function sqlEpochMilliseconds(column: SQL | AnyPgColumn): SQL<string> {
  return sql<string>`floor(extract(epoch FROM ${column}) * 1000)::bigint::text`;
}

/**
 * An instant as PostgreSQL reads a `timestamptz`, for any year it holds. `toISOString()` writes
 * years past 9999 as `+010000-…` and year 0 as `0000-…`, and PostgreSQL refuses both: a range's
 * exclusive end past `9999-12-31`, or an offset moving `0001-01-01` into the year before, would
 * fail the statement.
 */
export function sqlTimestampValue(instant: Date | number): string {
  return withPostgresYear(new Date(instant).toISOString());
}

/** The UTC day of an instant as a PostgreSQL `date`, for any year (see {@link sqlTimestampValue}). */
export function sqlDateValue(instant: Date | number): string {
  return withPostgresYear(new Date(instant).toISOString().replace(/T.*/, ''));
}

function withPostgresYear(iso: string): string {
  const [, signedYear = '', rest = ''] = /^([+-]?\d+)(.*)$/.exec(iso) ?? [];
  const year = Number(signedYear);
  // Astronomical year 0 is 1 BC, -1 is 2 BC.
  return year > 0 ? `${pad4(year)}${rest}` : `${pad4(1 - year)}${rest} BC`;
}

const pad4 = (year: number) => String(year).padStart(4, '0');
