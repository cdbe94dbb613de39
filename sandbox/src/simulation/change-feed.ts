import { NEVER } from './process-plan.js';

/**
 * The index behind "what changed since": for one clock minute, every existing process keyed by
 * (updatedAt minute, index) in ascending order. Paging walks the keys with a keyset cursor, so
 * while the clock stands still each match comes exactly once, and when it moves a process that
 * changes meanwhile gets a larger key and comes again later in the same walk: nothing is skipped.
 *
 * It costs three typed arrays (about 16 bytes a process); moving the clock only re-plans the
 * processes whose next change has come, then re-sorts the keys.
 */

/** Keys are `minute * KEY_BASE + index`: exact in a double while minutes stay below 2^31. */
const KEY_BASE = 2 ** 21;
const NO_CHANGE = 0x7fffffff;

export class InvalidQueryError extends Error {
  override readonly name = 'InvalidQueryError';

  constructor(
    readonly parameter: string,
    message: string,
  ) {
    super(message);
  }
}

export interface FeedSource {
  readonly processCount: number;
  /** Minute the process opens (its first event); cheap. */
  openMinute(index: number): number;
  /** The latest visible change at `now` (-1 before the process exists) and the next one. */
  changes(index: number, now: number): { updated: number; next: number };
}

export interface FeedPage {
  /** Process indexes with their updatedAt minute, in key order. */
  entries: { index: number; updated: number }[];
  nextCursor: string | null;
}

export class ChangeFeed {
  private readonly updated: Int32Array;
  private readonly next: Int32Array;
  private keys = new Float64Array(0);
  private minute: number | null = null;

  constructor(private readonly source: FeedSource) {
    if (source.processCount >= KEY_BASE) {
      throw new RangeError(`a change feed holds fewer than ${KEY_BASE} processes`);
    }
    this.updated = new Int32Array(source.processCount);
    this.next = new Int32Array(source.processCount);
  }

  /** Up to `limit` processes changed after `sinceMinute` (exclusive; null for all), after `cursor`. */
  page(now: number, sinceMinute: number | null, cursor: string | null, limit: number): FeedPage {
    let lower = sinceMinute === null ? -Infinity : (sinceMinute + 1) * KEY_BASE;
    if (cursor !== null) {
      lower = Math.max(lower, this.decodeCursor(cursor) + 1);
    }
    this.advanceTo(now);
    const keys = this.keys;
    let low = 0;
    let high = keys.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if ((keys[middle] ?? Infinity) < lower) low = middle + 1;
      else high = middle;
    }
    const end = Math.min(keys.length, low + limit);
    const entries: FeedPage['entries'] = [];
    for (let position = low; position < end; position++) {
      const key = keys[position] ?? 0;
      entries.push({ index: key % KEY_BASE, updated: Math.floor(key / KEY_BASE) });
    }
    const last = keys[end - 1];
    return { entries, nextCursor: end < keys.length && last !== undefined ? encodeCursor(last) : null };
  }

  private advanceTo(now: number): void {
    if (this.minute === now) {
      return;
    }
    const rebuild = this.minute === null || now < this.minute;
    let changed = rebuild;
    for (let index = 0; index < this.source.processCount; index++) {
      if (rebuild) {
        const opens = this.source.openMinute(index);
        if (opens > now) {
          this.updated[index] = -1;
          this.next[index] = clamp(opens);
          continue;
        }
      } else if ((this.next[index] ?? NO_CHANGE) > now) {
        continue;
      }
      const { updated, next } = this.source.changes(index, now);
      this.updated[index] = updated;
      this.next[index] = clamp(next);
      changed = true;
    }
    this.minute = now;
    if (changed) {
      this.sortKeys();
    }
  }

  private sortKeys(): void {
    let count = 0;
    for (const updated of this.updated) {
      if (updated >= 0) count++;
    }
    const keys = new Float64Array(count);
    let position = 0;
    this.updated.forEach((updated, index) => {
      if (updated >= 0) keys[position++] = updated * KEY_BASE + index;
    });
    this.keys = keys.sort();
  }

  private decodeCursor(cursor: string): number {
    const decoded = /^[A-Za-z0-9_-]{1,32}$/.test(cursor)
      ? Buffer.from(cursor, 'base64url').toString('latin1')
      : '';
    const match = /^k1:(\d{1,16})$/.exec(decoded);
    const key = match?.[1] !== undefined ? Number(match[1]) : NaN;
    if (!Number.isSafeInteger(key) || key % KEY_BASE >= this.source.processCount) {
      throw new InvalidQueryError('cursor', 'cursor is not one this simulator issued');
    }
    return key;
  }
}

function encodeCursor(key: number): string {
  return Buffer.from(`k1:${key}`, 'latin1').toString('base64url');
}

function clamp(minute: number): number {
  return minute >= NO_CHANGE || minute === NEVER ? NO_CHANGE : minute;
}
