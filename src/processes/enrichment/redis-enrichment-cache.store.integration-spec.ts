import { setTimeout as sleep } from 'node:timers/promises';
import { jest } from '@jest/globals';
import { Redis } from 'ioredis';
import { anOperationsDetail, anOperationsProcess } from '../../testing/operations-process.factory.js';
import {
  deleteKeys,
  TEST_REDIS_URL,
  testRedisAnswers,
  uniqueKeyPrefix,
  useUnreachableRedis,
  whenReady,
} from '../../testing/test-redis.js';
import { RedisConnection } from '../../redis/redis.connection.js';
import { redisFailureWarnings } from '../../redis/redis-failure-warnings.js';
import type { CachedEnrichment } from './enrichment-cache.store.js';
import { RedisEnrichmentCacheStore } from './redis-enrichment-cache.store.js';

const entry: CachedEnrichment = {
  detail: anOperationsDetail(anOperationsProcess({ numero: 'IMP-2026-000321' })),
  fetchedAt: '2026-03-14T12:00:00Z',
};

const redisAnswers = await testRedisAnswers('RedisEnrichmentCacheStore (real Redis)');

(redisAnswers ? describe : describe.skip)(`${RedisEnrichmentCacheStore.name} (real Redis)`, () => {
  const keyPrefix = uniqueKeyPrefix();
  let redis: Redis;
  let connections: RedisConnection[];
  let sut: RedisEnrichmentCacheStore;
  let otherInstance: RedisEnrichmentCacheStore;

  beforeAll(async () => {
    redis = new Redis(TEST_REDIS_URL);
    connections = await Promise.all([
      whenReady(RedisConnection.connect(TEST_REDIS_URL)),
      whenReady(RedisConnection.connect(TEST_REDIS_URL)),
    ]);
    sut = new RedisEnrichmentCacheStore(connections[0]!, keyPrefix);
    otherInstance = new RedisEnrichmentCacheStore(connections[1]!, keyPrefix);
  });

  afterAll(async () => {
    await deleteKeys(redis, keyPrefix);
    redis.disconnect();
    await Promise.all(connections.map((connection) => connection.onApplicationShutdown()));
  });

  it('shares entries between instances as JSON with a PX expiry', async () => {
    await sut.set('IMP-2026-000321', entry, 60_000);

    expect(await otherInstance.get('IMP-2026-000321')).toEqual(entry);
    expect(JSON.parse((await redis.get(`${keyPrefix}enrichment:IMP-2026-000321`))!)).toEqual(entry);
    const ttl = await redis.pttl(`${keyPrefix}enrichment:IMP-2026-000321`);
    expect(ttl).toBeGreaterThan(59_000);
    expect(ttl).toBeLessThanOrEqual(60_000);
  });

  it('misses unknown and expired entries', async () => {
    expect(await sut.get('IMP-2026-000404')).toBeUndefined();
    await sut.set('IMP-2026-000400', entry, 100);
    await sleep(150);
    expect(await sut.get('IMP-2026-000400')).toBeUndefined();
  });

  it('keeps nothing for a TTL of 0', async () => {
    await sut.set('IMP-2026-000401', entry, 0);
    expect(await redis.exists(`${keyPrefix}enrichment:IMP-2026-000401`)).toBe(0);
  });

  it('treats a value that is not JSON as a miss', async () => {
    await redis.set(`${keyPrefix}enrichment:IMP-2026-000402`, '{not json', 'PX', 60_000);
    const warn = jest.fn<(message: string) => void>();
    const store = new RedisEnrichmentCacheStore(connections[0]!, keyPrefix, redisFailureWarnings({ warn }));
    expect(await store.get('IMP-2026-000402')).toBeUndefined();
    expect(warn).toHaveBeenCalledTimes(1);
  });
});

describe(`${RedisEnrichmentCacheStore.name} while Redis is down`, () => {
  const connection = useUnreachableRedis();

  it('reads misses and skips writes, never throws, and warns once a kind', async () => {
    const warn = jest.fn<(message: string) => void>();
    const sut = new RedisEnrichmentCacheStore(connection(), 'down:', redisFailureWarnings({ warn }));

    await expect(sut.set('IMP-2026-000321', entry, 60_000)).resolves.toBeUndefined();
    for (let read = 0; read < 5; read += 1) await expect(sut.get('IMP-2026-000321')).resolves.toBeUndefined();
    await expect(sut.set('IMP-2026-000321', entry, 60_000)).resolves.toBeUndefined();

    expect(warn).toHaveBeenCalledTimes(2);
    expect(warn.mock.calls[0]?.[0]).toMatch(/^Redis unavailable, detail cache writes are skipped: /);
    expect(warn.mock.calls[1]?.[0]).toMatch(/^Redis unavailable, detail cache reads are misses: /);
  });
});
