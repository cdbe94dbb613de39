/** RFC 3339 instant in UTC, e.g. `2026-03-14T12:00:00Z`. */
export type Instant = string;
/** Calendar date, `YYYY-MM-DD`. */
export type CalendarDate = string;
