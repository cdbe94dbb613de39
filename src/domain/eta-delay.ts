import type { CalendarDate } from './time.js';

const DAY_MS = 86_400_000;

/**
 * How many whole days `eta` is after `originalEta` (negative when earlier); null when either is
 * unknown. The list items compute the same in SQL (`eta - original_eta`, migration 0018).
 */
export function etaDelayDays(eta: CalendarDate | null, originalEta: CalendarDate | null): number | null {
  if (eta === null || originalEta === null) return null;
  return Math.round((Date.parse(`${eta}T00:00:00Z`) - Date.parse(`${originalEta}T00:00:00Z`)) / DAY_MS);
}
