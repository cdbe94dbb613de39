/** One UTC day in milliseconds. */
export const DAY_MS = 86_400_000;

/** The contract's instant format: RFC 3339 in UTC with second precision (`2026-03-14T12:00:00Z`). */
export function toUtcInstant(date: Date): string {
  return `${date.toISOString().slice(0, 19)}Z`;
}
