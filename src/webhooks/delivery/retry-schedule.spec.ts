import { nextRetryDelayMs, RETRY_DELAYS_MS, retryAfterMs } from './retry-schedule.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

describe(nextRetryDelayMs.name, () => {
  it('follows 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h, 24 h, then gives up', () => {
    const middle = () => 0.5;
    const delays = Array.from({ length: 10 }, (_, index) => nextRetryDelayMs(index + 1, null, middle));

    expect(delays).toEqual([
      5000,
      5 * MINUTE,
      30 * MINUTE,
      2 * HOUR,
      5 * HOUR,
      10 * HOUR,
      14 * HOUR,
      20 * HOUR,
      24 * HOUR,
      null,
    ]);
  });

  it('jitters by ±10%', () => {
    expect(nextRetryDelayMs(2, null, () => 0)).toBe(4.5 * MINUTE);
    expect(nextRetryDelayMs(2, null, () => 1)).toBe(5.5 * MINUTE);
  });

  it('honours a longer Retry-After, up to the longest delay, never a shorter one', () => {
    expect(nextRetryDelayMs(1, 60_000, () => 0.5)).toBe(60_000);
    expect(nextRetryDelayMs(2, 1000, () => 0.5)).toBe(5 * MINUTE);
    expect(nextRetryDelayMs(1, 30 * 24 * HOUR, () => 0.5)).toBe(Math.max(...RETRY_DELAYS_MS));
  });
});

describe(retryAfterMs.name, () => {
  it('reads seconds or an HTTP date, null otherwise', () => {
    const now = Date.parse('2026-03-14T12:00:00Z');

    expect(retryAfterMs('120', now)).toBe(120_000);
    expect(retryAfterMs('Sat, 14 Mar 2026 12:10:00 GMT', now)).toBe(10 * MINUTE);
    expect(retryAfterMs('soon', now)).toBeNull();
    expect(retryAfterMs(null, now)).toBeNull();
  });
});
