import { DAY_MS } from '../common/instant.js';
import { sqlDateValue, sqlTimestampValue } from '../database/sql-instant.js';

/**
 * How a half-open `updatedAt` range splits for counting: the whole UTC days inside it, totalled
 * from `process_daily_counts`, and the partial days at its ends, counted in `processes`. Where
 * the range holds no whole day the day span is empty and the first edge is the whole range.
 */
export interface UpdatedRangeDays {
  /** First whole day (`YYYY-MM-DD`), when the range has a start. */
  wholeDaysFrom: string | null;
  /** The day after the last whole day, when the range has an end. */
  wholeDaysBefore: string | null;
  /** The first edge is `[updatedFrom, firstEdgeBefore)`. */
  firstEdgeBefore: string | null;
  /** The last edge is `[lastEdgeFrom, updatedBefore)`. */
  lastEdgeFrom: string | null;
}

export function updatedRangeDays(from: Date | null, before: Date | null): UpdatedRangeDays {
  const firstWholeDay = from === null ? null : Math.ceil(from.getTime() / DAY_MS) * DAY_MS;
  const afterLastWholeDay = before === null ? null : Math.floor(before.getTime() / DAY_MS) * DAY_MS;
  return {
    wholeDaysFrom: firstWholeDay === null ? null : sqlDateValue(firstWholeDay),
    wholeDaysBefore: afterLastWholeDay === null ? null : sqlDateValue(afterLastWholeDay),
    firstEdgeBefore:
      firstWholeDay === null
        ? null
        : sqlTimestampValue(Math.min(firstWholeDay, before?.getTime() ?? Infinity)),
    lastEdgeFrom:
      afterLastWholeDay === null
        ? null
        : sqlTimestampValue(Math.max(afterLastWholeDay, firstWholeDay ?? -Infinity)),
  };
}
