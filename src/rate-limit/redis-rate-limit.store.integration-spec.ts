import { setTimeout as sleep } from 'node:timers/promises';
import { jest } from '@jest/globals';
import {
  deleteKeys,
  TEST_REDIS_URL,
  testRedisAnswers,
  uniqueKeyPrefix,
  useUnreachableRedis,
  whenReady,
} from '../testing/test-redis.js';
import { FakeClock } from '../testing/fake-clock.js';
import { RedisConnection } from '../redis/redis.connection.js';
import { redisFailureWarnings } from '../redis/redis-failure-warnings.js';
import { MemoryRateLimitStore } from './memory-rate-limit.store.js';
import { RedisRateLimitStore } from './redis-rate-limit.store.js';

const redisAnswers = await testRedisAnswers('RedisRateLimitStore (real Redis)');

(redisAnswers ? describe : describe.skip)(`${RedisRateLimitStore.name} (real Redis)`, () => {
  const keyPrefix = uniqueKeyPrefix();
  let instanceA: RedisConnection;
  let instanceB: RedisConnection;
  let storeA: RedisRateLimitStore;
  let storeB: RedisRateLimitStore;
  let key: string;

  beforeAll(async () => {
    instanceA = await whenReady(RedisConnection.connect(TEST_REDIS_URL));
    instanceB = await whenReady(RedisConnection.connect(TEST_REDIS_URL));
    storeA = new RedisRateLimitStore(instanceA, keyPrefix, new MemoryRateLimitStore(new FakeClock()));
    storeB = new RedisRateLimitStore(instanceB, keyPrefix, new MemoryRateLimitStore(new FakeClock()));
  });

  beforeEach(() => {
    key = `k-${expect.getState().currentTestName?.replace(/\W+/g, '-')}`;
  });

  afterAll(async () => {
    await deleteKeys(instanceA.client!, keyPrefix);
    await instanceA.onApplicationShutdown();
    await instanceB.onApplicationShutdown();
  });

  it('counts one window across instances and blocks past the limit until it ends', async () => {
    expect(await storeA.increment(key, 400, 2, 0)).toMatchObject({ totalHits: 1, isBlocked: false });
    expect(await storeB.increment(key, 400, 2, 0)).toMatchObject({ totalHits: 2, isBlocked: false });
    expect(await storeA.increment(key, 400, 2, 0)).toEqual({
      totalHits: 3,
      timeToExpire: 1,
      isBlocked: true,
      timeToBlockExpire: 1,
    });
    expect(await storeB.increment(key, 400, 2, 0)).toMatchObject({ isBlocked: true });
    await sleep(450);
    expect(await storeB.increment(key, 400, 2, 0)).toMatchObject({ totalHits: 1, isBlocked: false });
  });

  it('keeps a blockDuration beyond the window', async () => {
    await storeA.increment(key, 200, 1, 600);
    expect(await storeA.increment(key, 200, 1, 600)).toMatchObject({ isBlocked: true });
    await sleep(300);
    expect(await storeB.increment(key, 200, 1, 600)).toMatchObject({ isBlocked: true });
    await sleep(350);
    expect(await storeB.increment(key, 200, 1, 600)).toMatchObject({ totalHits: 1, isBlocked: false });
  });

  it('reserves atomically: of concurrent attempts on two instances, exactly the limit get through', async () => {
    const windows = [
      { key: `${key}:user`, limit: 10, windowMs: 60_000 },
      { key: `${key}:address`, limit: 50, windowMs: 60_000 },
    ];
    const results = await Promise.all(
      Array.from({ length: 30 }, (_, index) => (index % 2 === 0 ? storeA : storeB).reserve(windows)),
    );
    expect(results.filter((result) => result.allowed)).toHaveLength(10);
    const refused = results.find((result) => !result.allowed);
    expect(refused).toEqual({ allowed: false, retryAfterMs: expect.any(Number), window: 0 });
    expect((refused as { retryAfterMs: number }).retryAfterMs).toBeGreaterThan(59_000);
    expect(Number(await instanceA.client!.get(`${keyPrefix}rate-limit:${key}:address`))).toBe(10);
  });

  it('releases and resets across instances', async () => {
    const windows = [{ key, limit: 2, windowMs: 60_000 }];
    await storeA.reserve(windows);
    await storeA.reserve(windows);
    expect(await storeB.reserve(windows)).toMatchObject({ allowed: false });
    await storeB.release([key, `${key}:missing`]);
    expect(await instanceA.client!.exists(`${keyPrefix}rate-limit:${key}:missing`)).toBe(0);
    expect(await storeA.reserve(windows)).toEqual({ allowed: true });
    await storeB.reset([key]);
    expect(await storeA.reserve(windows)).toEqual({ allowed: true });
    expect(await instanceA.client!.pttl(`${keyPrefix}rate-limit:${key}`)).toBeGreaterThan(59_000);
  });

  it('names the fullest window when several are full', async () => {
    const windows = [
      { key: `${key}:a`, limit: 1, windowMs: 30_000 },
      { key: `${key}:b`, limit: 1, windowMs: 60_000 },
    ];
    await storeA.reserve(windows);
    expect(await storeB.reserve(windows)).toMatchObject({ allowed: false, window: 1 });
  });

  it('lets a window pass', async () => {
    const windows = [{ key, limit: 1, windowMs: 300 }];
    await storeA.reserve(windows);
    expect(await storeB.reserve(windows)).toEqual({
      allowed: false,
      retryAfterMs: expect.any(Number),
      window: 0,
    });
    await sleep(350);
    expect(await storeB.reserve(windows)).toEqual({ allowed: true });
  });
});

describe(`${RedisRateLimitStore.name} while Redis is down`, () => {
  const connection = useUnreachableRedis();
  let sut: RedisRateLimitStore;
  const warn = jest.fn<(message: string) => void>();

  beforeEach(() => {
    warn.mockClear();
    sut = new RedisRateLimitStore(
      connection(),
      'down:',
      new MemoryRateLimitStore(new FakeClock()),
      redisFailureWarnings({ warn }),
    );
  });

  it('keeps limiting, per instance, in memory', async () => {
    const windows = [{ key: 'user', limit: 2, windowMs: 60_000 }];
    expect(await sut.reserve(windows)).toEqual({ allowed: true });
    expect(await sut.reserve(windows)).toEqual({ allowed: true });
    expect(await sut.reserve(windows)).toMatchObject({ allowed: false });
    await sut.release(['user']);
    expect(await sut.reserve(windows)).toEqual({ allowed: true });
    await sut.reset(['user']);
    expect(await sut.increment('u', 60_000, 1, 0)).toMatchObject({ totalHits: 1, isBlocked: false });
    expect(await sut.increment('u', 60_000, 1, 0)).toMatchObject({ isBlocked: true });
  });

  it('warns once, not on every request', async () => {
    for (let attempt = 0; attempt < 20; attempt += 1) await sut.increment('u', 60_000, 100, 0);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0]?.[0]).toMatch(/^Redis unavailable, rate limits are counted per instance: /);
  });
});
