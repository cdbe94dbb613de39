import { causesOf } from './sql-rows.js';

/**
 * SQLSTATEs that say the database cannot serve now, not that the statement was wrong: connection
 * exceptions (class 08), shutdown and start-up (57P01-57P03), too many connections, a statement
 * cancelled by `statement_timeout` (57014) and a lock not obtained in time (55P03).
 */
const UNAVAILABLE_SQLSTATES = new Set(['57P01', '57P02', '57P03', '53300', '57014', '55P03']);

/** What `pg` and the socket under it throw when the server is gone, refusing or silent. */
const UNAVAILABLE_NODE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);
const UNAVAILABLE_MESSAGES = [
  /^Connection terminated/,
  /^timeout exceeded when trying to connect/,
  /^Query read timeout$/,
  /^Client has encountered a connection error and is not queryable$/,
  /^Client was closed and is not queryable$/,
];

/**
 * Whether `error` (or an error it wraps, as drizzle wraps the driver's) means the database is
 * unreachable, restarting or too slow: an outage to answer with a 503, not a bug.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (const cause of causesOf(error)) {
    const code = (cause as { code?: unknown }).code;
    if (typeof code === 'string' && (code.startsWith('08') || UNAVAILABLE_SQLSTATES.has(code))) return true;
    if (typeof code === 'string' && UNAVAILABLE_NODE_CODES.has(code)) return true;
    if (UNAVAILABLE_MESSAGES.some((pattern) => pattern.test(cause.message))) return true;
  }
  return false;
}
