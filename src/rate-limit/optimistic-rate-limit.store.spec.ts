import { jest } from '@jest/globals';
import { FakeClock } from '../testing/fake-clock.js';
import { OptimisticRateLimitStore } from './optimistic-rate-limit.store.js';
import { RateLimitStore, type ThrottlerStorageRecord } from './rate-limit.store.js';

const LIMIT = 10;
const WINDOW_MS = 60_000;

/** A shared store whose answers arrive when the test says: a Redis round trip. */
class PendingSharedStore extends RateLimitStore {
  readonly pending: Array<(record: ThrottlerStorageRecord) => void> = [];
  hits = 0;

  increment(): Promise<ThrottlerStorageRecord> {
    this.hits++;
    return new Promise((resolve) => this.pending.push(resolve));
  }

  /** Answers the oldest hit with the shared count `totalHits` (other instances' hits included). */
  async answer(totalHits: number, secondsLeft = 60): Promise<void> {
    this.pending.shift()!({
      totalHits,
      timeToExpire: secondsLeft,
      isBlocked: totalHits > LIMIT,
      timeToBlockExpire: totalHits > LIMIT ? secondsLeft : 0,
    });
    await Promise.resolve();
    await Promise.resolve();
  }

  reserve = jest.fn(() => Promise.resolve({ allowed: true as const }));
  release = jest.fn(() => Promise.resolve());
  reset = jest.fn(() => Promise.resolve());
}

describe('OptimisticRateLimitStore', () => {
  let shared: PendingSharedStore;
  let clock: FakeClock;
  let store: OptimisticRateLimitStore;

  beforeEach(() => {
    shared = new PendingSharedStore();
    clock = new FakeClock(new Date('2026-11-25T12:00:00Z'));
    store = new OptimisticRateLimitStore(shared, clock);
  });

  /** Whether the hit's answer is there without the shared store having answered it. */
  async function answeredAtOnce(): Promise<ThrottlerStorageRecord | null> {
    let record: ThrottlerStorageRecord | null = null;
    void store.increment('user:1', WINDOW_MS, LIMIT, 0).then((answer) => (record = answer));
    await Promise.resolve();
    await Promise.resolve();
    return record;
  }

  it('waits for the shared count while it has no view of the window', async () => {
    const first = store.increment('user:1', WINDOW_MS, LIMIT, 0);
    expect(shared.hits).toBe(1);
    await shared.answer(1);
    await expect(first).resolves.toMatchObject({ totalHits: 1, isBlocked: false });
  });

  it('below half the limit, answers at once and counts in the shared store behind the answer', async () => {
    const first = store.increment('user:1', WINDOW_MS, LIMIT, 0);
    await shared.answer(1);
    await first;

    for (const expectedHits of [2, 3, 4, 5]) {
      expect(await answeredAtOnce()).toEqual({
        totalHits: expectedHits,
        timeToExpire: 60,
        isBlocked: false,
        timeToBlockExpire: 0,
      });
    }
    expect(shared.hits).toBe(5);
    // The sixth would be past half the limit: it waits, and the shared count decides.
    expect(await answeredAtOnce()).toBeNull();
    expect(shared.hits).toBe(6);
  });

  it('sees what other instances counted in each answer, and waits once that nears the limit', async () => {
    const first = store.increment('user:1', WINDOW_MS, LIMIT, 0);
    await shared.answer(1);
    await first;
    expect(await answeredAtOnce()).toMatchObject({ totalHits: 2 });
    // Meanwhile other instances counted 6 hits: the shared count answers 8.
    await shared.answer(8);

    const next = store.increment('user:1', WINDOW_MS, LIMIT, 0);
    await Promise.resolve();
    await shared.answer(11);
    await expect(next).resolves.toMatchObject({ totalHits: 11, isBlocked: true });
  });

  it('waits again once the window it knows has ended', async () => {
    const first = store.increment('user:1', WINDOW_MS, LIMIT, 0);
    await shared.answer(1, 60);
    await first;
    clock.advance(60_000);
    expect(await answeredAtOnce()).toBeNull();
  });

  it('keeps a view per key', async () => {
    const first = store.increment('user:1', WINDOW_MS, LIMIT, 0);
    await shared.answer(1);
    await first;
    const other = store.increment('user:2', WINDOW_MS, LIMIT, 0);
    await Promise.resolve();
    expect(shared.pending).toHaveLength(1);
    await shared.answer(1);
    await expect(other).resolves.toMatchObject({ totalHits: 1 });
  });

  it('passes the failed-login limit through, exact at every attempt', async () => {
    const windows = [{ key: 'login:a', limit: 5, windowMs: 60_000 }];
    await store.reserve(windows);
    await store.release(['login:a']);
    await store.reset(['login:a']);
    expect(shared.reserve).toHaveBeenCalledWith(windows);
    expect(shared.release).toHaveBeenCalledWith(['login:a']);
    expect(shared.reset).toHaveBeenCalledWith(['login:a']);
  });
});
