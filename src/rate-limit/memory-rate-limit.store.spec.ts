import { FakeClock } from '../testing/fake-clock.js';
import { MemoryRateLimitStore } from './memory-rate-limit.store.js';

describe(MemoryRateLimitStore.name, () => {
  let clock: FakeClock;
  let sut: MemoryRateLimitStore;

  beforeEach(() => {
    clock = new FakeClock();
    sut = new MemoryRateLimitStore(clock);
  });

  describe('increment (the per-user throttler)', () => {
    it('counts hits in a fixed window and blocks past the limit until the window ends', async () => {
      for (let hit = 1; hit <= 3; hit += 1) {
        expect(await sut.increment('k', 60_000, 3, 0)).toEqual({
          totalHits: hit,
          timeToExpire: 60,
          isBlocked: false,
          timeToBlockExpire: 0,
        });
      }
      clock.advance(20_000);
      expect(await sut.increment('k', 60_000, 3, 0)).toMatchObject({
        totalHits: 4,
        isBlocked: true,
        timeToBlockExpire: 40,
      });
      clock.advance(39_500);
      expect(await sut.increment('k', 60_000, 3, 0)).toMatchObject({ isBlocked: true, timeToBlockExpire: 1 });
      clock.advance(500);
      expect(await sut.increment('k', 60_000, 3, 0)).toMatchObject({ totalHits: 1, isBlocked: false });
    });

    it('blocks for blockDuration when one is given, beyond the window', async () => {
      await sut.increment('k', 1_000, 1, 5_000);
      expect(await sut.increment('k', 1_000, 1, 5_000)).toMatchObject({
        isBlocked: true,
        timeToBlockExpire: 5,
      });
      clock.advance(2_000);
      expect(await sut.increment('k', 1_000, 1, 5_000)).toMatchObject({ isBlocked: true });
      clock.advance(3_000);
      expect(await sut.increment('k', 1_000, 1, 5_000)).toMatchObject({ totalHits: 1, isBlocked: false });
    });

    it('keeps keys apart', async () => {
      await sut.increment('a', 60_000, 1, 0);
      expect(await sut.increment('b', 60_000, 1, 0)).toMatchObject({ totalHits: 1, isBlocked: false });
    });
  });

  describe('reserve, release and reset (the login limiter)', () => {
    const windows = [
      { key: 'user', limit: 2, windowMs: 900_000 },
      { key: 'address', limit: 3, windowMs: 900_000 },
    ];

    it('counts in every window until one is full, then counts nothing and says when it ends', async () => {
      expect(await sut.reserve(windows)).toEqual({ allowed: true });
      clock.advance(60_000);
      expect(await sut.reserve(windows)).toEqual({ allowed: true });
      expect(await sut.reserve(windows)).toEqual({ allowed: false, retryAfterMs: 840_000, window: 0 });
      // The address window was not charged by the refused attempt: one more fits for another user.
      expect(await sut.reserve([{ key: 'other', limit: 2, windowMs: 900_000 }, windows[1]!])).toEqual({
        allowed: true,
      });
      expect(await sut.reserve([{ key: 'third', limit: 2, windowMs: 900_000 }, windows[1]!])).toEqual({
        allowed: false,
        retryAfterMs: 840_000,
        window: 1,
      });
    });

    it('lets attempts through again once the window has passed', async () => {
      await sut.reserve(windows);
      await sut.reserve(windows);
      clock.advance(900_000);
      expect(await sut.reserve(windows)).toEqual({ allowed: true });
    });

    it('gives back released attempts, never below zero', async () => {
      const userOnly = [windows[0]!];
      await sut.reserve(userOnly);
      await sut.reserve(userOnly);
      await sut.release(['user']);
      await sut.release(['user', 'user', 'missing']);
      expect(await sut.reserve(userOnly)).toEqual({ allowed: true });
      expect(await sut.reserve(userOnly)).toEqual({ allowed: true });
      expect(await sut.reserve(userOnly)).toMatchObject({ allowed: false });
    });

    it('forgets reset keys', async () => {
      await sut.reserve(windows);
      await sut.reserve(windows);
      await sut.reset(['user']);
      expect(await sut.reserve(windows)).toEqual({ allowed: true });
    });
  });
});
