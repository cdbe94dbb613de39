import type { SQL } from 'drizzle-orm';
import type { Database } from './database.service.js';

/** The database or a transaction of it: what runs a statement. */
export type Executor = Database | Parameters<Parameters<Database['transaction']>[0]>[0];

export async function rowsOf<T>(executor: Executor, query: SQL): Promise<T[]> {
  // Both drivers (node-postgres and PGlite) answer raw SQL with `{ rows }`.
  const result: unknown = await executor.execute(query);
  return (result as { rows: T[] }).rows;
}

/** `error` and the errors it wraps (drizzle wraps the driver's), outermost first, a few deep. */
export function* causesOf(error: unknown): Generator<Error> {
  for (let current = error, depth = 0; current instanceof Error && depth < 5; depth++) {
    yield current;
    current = current.cause;
  }
}

/** The SQLSTATE of a driver error, looking through drizzle's wrapper. */
export function sqlStateOf(error: unknown): string | null {
  for (const cause of causesOf(error)) {
    const code = (cause as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
  }
  return null;
}

/** Class 22 (data exception) or 23 (integrity constraint violation): the data is at fault, not the database. */
export function isDataError(error: unknown): boolean {
  const state = sqlStateOf(error);
  return state !== null && (state.startsWith('22') || state.startsWith('23'));
}
