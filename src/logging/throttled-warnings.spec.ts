import { jest } from '@jest/globals';
import { ThrottledWarnings } from './throttled-warnings.js';

describe(ThrottledWarnings.name, () => {
  it('warns at most once an interval and reports how many failures it held back', () => {
    let now = 0;
    const warn = jest.fn<(message: string) => void>();
    const sut = new ThrottledWarnings(
      { warn },
      { subject: 'Redis unavailable', intervalMs: 30_000, now: () => now },
    );

    sut.warn('cache reads are misses', new Error('connect ECONNREFUSED'));
    now = 10_000;
    sut.warn('cache reads are misses', new Error('connect ECONNREFUSED'));
    sut.warn('cache reads are misses', new Error('connect ECONNREFUSED'));
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn).toHaveBeenLastCalledWith('Redis unavailable, cache reads are misses: connect ECONNREFUSED');

    now = 30_000;
    sut.warn('cache reads are misses', new Error('timeout'));
    expect(warn).toHaveBeenCalledTimes(2);
    expect(warn).toHaveBeenLastCalledWith(
      'Redis unavailable, cache reads are misses: timeout (2 more failures since the last warning)',
    );
  });

  it('limits each kind on its own: one kind failing does not hide another', () => {
    const warn = jest.fn<(message: string) => void>();
    const sut = new ThrottledWarnings(
      { warn },
      { subject: 'Redis unavailable', intervalMs: 30_000, now: () => 0 },
    );

    sut.warn('cache reads are misses', new Error('timeout'));
    sut.warn('cache writes are skipped', new Error('timeout'));
    sut.warn('cache reads are misses', new Error('timeout'));
    expect(warn.mock.calls.map(([message]) => message)).toEqual([
      'Redis unavailable, cache reads are misses: timeout',
      'Redis unavailable, cache writes are skipped: timeout',
    ]);
  });
});
