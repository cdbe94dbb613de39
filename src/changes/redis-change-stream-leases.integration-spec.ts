import { setTimeout as sleep } from 'node:timers/promises';
import { jest } from '@jest/globals';
import { Logger } from '@nestjs/common';
import { expectTwoStreamsPerUser } from '../testing/stream-leases-contract.js';
import { TcpProxy } from '../testing/tcp-proxy.js';
import {
  deleteKeys,
  TEST_REDIS_URL,
  testRedisAnswers,
  uniqueKeyPrefix,
  useUnreachableRedis,
  whenReady,
} from '../testing/test-redis.js';
import { REDIS_PROBE_INTERVAL_MS, RedisConnection } from '../redis/redis.connection.js';
import { redisFailureWarnings } from '../redis/redis-failure-warnings.js';
import { RedisChangeStreamLeases } from './redis-change-stream-leases.js';

/** Leases live three refreshes: 600 ms, long enough for a loaded machine to refresh in time. */
const REFRESH_EVERY_MS = 200;
const LEASE_TTL_MS = 3 * REFRESH_EVERY_MS;

const redisAnswers = await testRedisAnswers('RedisChangeStreamLeases (real Redis)');

(redisAnswers ? describe : describe.skip)(`${RedisChangeStreamLeases.name} (real Redis)`, () => {
  const keyPrefix = uniqueKeyPrefix();
  let connectionA: RedisConnection;
  let connectionB: RedisConnection;
  const started: RedisChangeStreamLeases[] = [];
  let userId: string;

  const leasesOn = (connection: RedisConnection, limit = 2, refreshEveryMs = REFRESH_EVERY_MS) => {
    const leases = new RedisChangeStreamLeases(connection, keyPrefix, limit, refreshEveryMs);
    started.push(leases);
    return leases;
  };
  const leasesInRedis = () => connectionA.client!.zcard(`${keyPrefix}change-streams:${userId}`);

  beforeAll(async () => {
    Logger.overrideLogger(false);
    connectionA = await whenReady(RedisConnection.connect(TEST_REDIS_URL));
    connectionB = await whenReady(RedisConnection.connect(TEST_REDIS_URL));
  });

  beforeEach(() => {
    userId = `user-${expect.getState().currentTestName?.replace(/\W+/g, '-')}`;
  });

  afterEach(() => {
    for (const leases of started.splice(0)) leases.onApplicationShutdown();
  });

  afterAll(async () => {
    await deleteKeys(connectionA.client!, keyPrefix);
    await connectionA.onApplicationShutdown();
    await connectionB.onApplicationShutdown();
    Logger.overrideLogger(['log', 'error', 'warn', 'debug', 'verbose', 'fatal']);
  });

  it('shares the limit across instances: a release on one frees a place on the other', async () => {
    const instanceA = leasesOn(connectionA);
    const instanceB = leasesOn(connectionB);
    const first = await instanceA.acquire(userId);
    expect(first).not.toBeNull();
    expect(await instanceB.acquire(userId)).not.toBeNull();

    expect(await instanceA.acquire(userId)).toBeNull();
    expect(await instanceB.acquire(userId)).toBeNull();
    expect(await instanceB.acquire(`${userId}-other`)).not.toBeNull();

    first?.release();
    first?.release();
    expect(await instanceB.acquire(userId)).not.toBeNull();
    expect(await instanceA.acquire(userId)).toBeNull();
  });

  it('lets the leases of an instance that stopped refreshing them (died) expire among live ones', async () => {
    const dying = leasesOn(connectionA);
    const survivor = leasesOn(connectionB);
    expect(await survivor.acquire(userId)).not.toBeNull();
    expect(await dying.acquire(userId)).not.toBeNull();
    dying.onApplicationShutdown();

    expect(await survivor.acquire(userId)).toBeNull();
    await sleep(LEASE_TTL_MS + 100);
    expect(await survivor.acquire(userId)).not.toBeNull();
  });

  it('keeps an instance’s leases however soon another instance’s leases expire', async () => {
    // Leases of 6 s: unrefreshed until 2 s from now.
    const slow = leasesOn(connectionA, 2, 10 * REFRESH_EVERY_MS);
    const fast = leasesOn(connectionB);
    expect(await slow.acquire(userId)).not.toBeNull();
    const brief = await fast.acquire(userId);
    expect(brief).not.toBeNull();
    brief?.release();

    await sleep(LEASE_TTL_MS + 200);

    expect(await leasesInRedis()).toBe(1);
  });

  it('keeps refreshed leases past their TTL, scored by Redis’s clock', async () => {
    const holder = leasesOn(connectionA, 1);
    const other = leasesOn(connectionB, 1);
    expect(await holder.acquire(userId)).not.toBeNull();

    await sleep(3 * LEASE_TTL_MS);

    expect(await other.acquire(userId)).toBeNull();
    const [[seconds, micros], [, expiry]] = await Promise.all([
      connectionA.client!.time(),
      connectionA.client!.zrange(`${keyPrefix}change-streams:${userId}`, '0', '0', 'WITHSCORES'),
    ]);
    const serverNow = Number(seconds) * 1000 + Math.floor(Number(micros) / 1000);
    expect(Number(expiry) - serverNow).toBeGreaterThan(0);
    expect(Number(expiry) - serverNow).toBeLessThanOrEqual(LEASE_TTL_MS);
  });

  it('counts on this instance while Redis hangs, and puts those leases in Redis once it answers', async () => {
    const server = new URL(TEST_REDIS_URL);
    const proxy = await TcpProxy.start({ host: server.hostname, port: Number(server.port || 6379) });
    const proxied = await whenReady(RedisConnection.connect(proxy.urlFor(TEST_REDIS_URL)));
    try {
      const sut = leasesOn(proxied);
      proxy.freeze();
      // The first times out and opens the circuit; the second is not even sent.
      expect(await sut.acquire(userId)).not.toBeNull();
      expect(await sut.acquire(userId)).not.toBeNull();
      expect(await sut.acquire(userId)).toBeNull();

      proxy.resume();
      for (let waited = 0; !proxied.available && waited < 5 * REDIS_PROBE_INTERVAL_MS; waited += 100)
        await sleep(100);
      await sleep(2 * REFRESH_EVERY_MS);

      expect(await leasesInRedis()).toBe(2);
      expect(await leasesOn(connectionB).acquire(userId)).toBeNull();
    } finally {
      proxy.resume();
      await proxied.onApplicationShutdown();
      await proxy.close();
    }
  });
});

describe(`${RedisChangeStreamLeases.name} while Redis is down`, () => {
  const connection = useUnreachableRedis();
  let sut: RedisChangeStreamLeases;
  const warn = jest.fn<(message: string) => void>();

  beforeEach(() => {
    warn.mockClear();
    sut = new RedisChangeStreamLeases(
      connection(),
      'down:',
      2,
      REFRESH_EVERY_MS,
      redisFailureWarnings({ warn }),
    );
  });

  afterEach(() => sut.onApplicationShutdown());

  it('keeps the limit, per instance, in memory', async () => {
    await expectTwoStreamsPerUser(sut);
  });

  it('warns once, not on every stream', async () => {
    for (let attempt = 0; attempt < 10; attempt += 1) await sut.acquire(`user-${attempt}`);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0]?.[0]).toMatch(/^Redis unavailable, change streams are counted per instance: /);
  });
});
