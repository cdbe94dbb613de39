const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/** After the first failure, after the second, ...: then the subscription is disabled. */
export const RETRY_DELAYS_MS = [
  5 * SECOND,
  5 * MINUTE,
  30 * MINUTE,
  2 * HOUR,
  5 * HOUR,
  10 * HOUR,
  14 * HOUR,
  20 * HOUR,
  24 * HOUR,
] as const;

/** ±10%, so that receivers that failed together are not retried together. */
const JITTER = 0.1;

/**
 * When to try a failed message again: `null` when it has failed every retry. A `Retry-After`
 * (seconds or an HTTP date, on 429 and 503) is honoured when it asks for longer than the schedule,
 * up to the schedule's longest delay.
 */
export function nextRetryDelayMs(
  failedAttempts: number,
  retryAfterMs: number | null,
  random: () => number,
): number | null {
  const scheduled = RETRY_DELAYS_MS[failedAttempts - 1];
  if (scheduled === undefined) return null;
  const jittered = Math.round(scheduled * (1 - JITTER + 2 * JITTER * random()));
  const longest = Math.max(...RETRY_DELAYS_MS);
  return retryAfterMs === null ? jittered : Math.max(jittered, Math.min(retryAfterMs, longest));
}

/** A `Retry-After` header's wait in milliseconds from `nowMs`, or null when absent or unreadable. */
export function retryAfterMs(header: string | null, nowMs: number): number | null {
  if (header === null) return null;
  if (/^\d{1,9}$/.test(header.trim())) return Number(header.trim()) * SECOND;
  const date = Date.parse(header);
  return Number.isNaN(date) ? null : Math.max(0, date - nowMs);
}
