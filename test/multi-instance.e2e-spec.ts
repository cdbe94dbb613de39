import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { OperationsGateway } from '../src/operations/operations.gateway.js';
import { REDIS_KEY_PREFIX } from '../src/redis/redis-key-prefix.js';
import { SyncService } from '../src/sync/sync.service.js';
import { anOperationsDetail, anOperationsProcess } from '../src/testing/operations-process.factory.js';
import { FakeOperationsGateway } from '../src/testing/fake-operations.gateway.js';
import { closedPort } from '../src/testing/closed-port.js';
import { SseClient } from './support/sse-client.js';
import { syncNow } from './support/sync-now.js';
import { TestApp } from './support/test-app.js';
import { deleteKeys, TEST_REDIS_URL, testRedisAnswers, uniqueKeyPrefix } from '../src/testing/test-redis.js';
import { waitUntil } from './support/wait-until.js';

const SUITE = 'Several instances on one PostgreSQL and one Redis';
const PER_USER_PER_MINUTE = 6;
const STREAMS_PER_USER = 2;

async function canRun(): Promise<boolean> {
  if (process.env.TEST_DATABASE_URL === undefined) {
    console.error(`${SUITE}: SKIPPED, needs TEST_DATABASE_URL (instances share a PostgreSQL database)`);
    return false;
  }
  return testRedisAnswers(SUITE);
}

const expectRateLimited = (response: { status: number; headers: Record<string, string>; body: unknown }) => {
  expect(response.status).toBe(429);
  expect(response.headers['retry-after']).toMatch(/^[1-9]\d*$/);
  expect(response.body).toMatchObject({ type: '/problems/rate-limited', status: 429 });
};

((await canRun()) ? describe : describe.skip)(SUITE, () => {
  const keyPrefix = uniqueKeyPrefix();
  const gateway = new FakeOperationsGateway();
  const process = anOperationsProcess({ numero: 'IMP-2026-000951' });
  let redis: Redis;
  let instanceA: TestApp;
  let instanceB: TestApp;
  let acmeToken: string;
  let operatorToken: string;

  const startInstance = (redisUrl: string, sharingDatabaseOf?: TestApp) =>
    TestApp.start({
      target: 'postgres',
      ...(sharingDatabaseOf !== undefined && { sharingDatabaseOf }),
      env: {
        REDIS_URL: redisUrl,
        TRUST_PROXY: '1',
        RATE_LIMIT_PER_USER_PER_MINUTE: String(PER_USER_PER_MINUTE),
        CHANGES_STREAMS_PER_USER: String(STREAMS_PER_USER),
      },
      override: (builder) =>
        builder
          .overrideProvider(OperationsGateway)
          .useValue(gateway)
          .overrideProvider(REDIS_KEY_PREFIX)
          .useValue(keyPrefix),
    });

  beforeAll(async () => {
    redis = new Redis(TEST_REDIS_URL);
    gateway.put(process, anOperationsDetail(process));
    instanceA = await startInstance(TEST_REDIS_URL);
    instanceB = await startInstance(TEST_REDIS_URL, instanceA);
    await instanceA.app.listen(0, '127.0.0.1');
    await instanceB.app.listen(0, '127.0.0.1');
    await syncNow(instanceA);
    await instanceA.addUser({ username: 'acme', password: 'acme-pass-1', customerIds: ['acme'] });
    await instanceA.addUser({ username: 'operator', password: 'operator-pass-1', role: 'staff' });
    acmeToken = await instanceA.login('acme', 'acme-pass-1');
    operatorToken = await instanceB.login('operator', 'operator-pass-1');
  }, 60_000);

  afterAll(async () => {
    await instanceB?.close();
    await instanceA?.close();
    await deleteKeys(redis, keyPrefix);
    redis.disconnect();
  }, 60_000);

  const login = (instance: TestApp, body: Record<string, unknown>, from: string) =>
    instance.http.post('/api/auth/login').set('X-Forwarded-For', from).send(body);

  /** Streams need a real socket: supertest cannot read an endless response. */
  const streamUrlOf = (instance: TestApp) =>
    `http://127.0.0.1:${(instance.app.getHttpServer().address() as AddressInfo).port}/api/changes/stream`;

  it('counts failed logins of one user name from one address across instances', async () => {
    for (let attempt = 0; attempt < 10; attempt += 1) {
      const instance = attempt % 2 === 0 ? instanceA : instanceB;
      const response = await login(instance, { username: 'acme', password: 'wrong' }, '198.51.100.1');
      expect(response.status).toBe(401);
    }
    expectRateLimited(await login(instanceA, { username: 'acme', password: 'acme-pass-1' }, '198.51.100.1'));
    expectRateLimited(await login(instanceB, { username: 'acme', password: 'acme-pass-1' }, '198.51.100.1'));
    expect(
      (await login(instanceB, { username: 'acme', password: 'acme-pass-1' }, '198.51.100.2')).status,
    ).toBe(200);
  });

  it('counts failed logins of one client address across instances', async () => {
    for (let attempt = 0; attempt < 50; attempt += 1) {
      const instance = attempt % 2 === 0 ? instanceA : instanceB;
      const response = await login(
        instance,
        { username: `guess-${attempt}`, password: 'wrong' },
        '203.0.113.7',
      );
      expect(response.status).toBe(401);
    }
    expectRateLimited(
      await login(instanceA, { username: 'operator', password: 'operator-pass-1' }, '203.0.113.7'),
    );
    expectRateLimited(
      await login(instanceB, { username: 'operator', password: 'operator-pass-1' }, '203.0.113.7'),
    );
    expect(
      (await login(instanceB, { username: 'operator', password: 'operator-pass-1' }, '203.0.113.8')).status,
    ).toBe(200);
  });

  it('shares the per-user request limit', async () => {
    for (let request = 0; request < PER_USER_PER_MINUTE; request += 1) {
      const instance = request % 2 === 0 ? instanceA : instanceB;
      expect(
        (await instance.http.get('/api/processes').set('Authorization', `Bearer ${operatorToken}`)).status,
      ).toBe(200);
    }
    expectRateLimited(
      await instanceA.http.get('/api/processes').set('Authorization', `Bearer ${operatorToken}`),
    );
    expectRateLimited(
      await instanceB.http.get('/api/processes').set('Authorization', `Bearer ${operatorToken}`),
    );
  });

  it('shares the detail cache: what one instance fetched, the other serves as CACHED', async () => {
    gateway.detailCalls = [];
    const detail = (instance: TestApp) =>
      instance.http
        .get(`/api/processes/${process.numero}`)
        .set('Authorization', `Bearer ${acmeToken}`)
        .expect(200);

    expect((await detail(instanceA)).body.enrichment.status).toBe('FRESH');
    const fromB = await detail(instanceB);
    expect(fromB.body.enrichment.status).toBe('CACHED');
    expect(fromB.body.parties).toEqual(anOperationsDetail(process).parties);
    expect(gateway.detailCalls).toEqual([process.numero]);
  });

  it('runs one sync at a time across instances', async () => {
    gateway.hold();
    const callsBefore = gateway.queries.length;
    const runA = instanceA.app.get(SyncService).run();
    try {
      // A holds the advisory lock once it is waiting on the operations system.
      for (let wait = 0; gateway.queries.length === callsBefore && wait < 100; wait += 1) await sleep(50);
      expect(gateway.queries.length).toBeGreaterThan(callsBefore);

      const outcomeB = await instanceB.app.get(SyncService).run();
      expect(outcomeB.status).toBe('skipped');
    } finally {
      gateway.release();
    }
    expect((await runA).status).toBe('succeeded');
  });

  it('delivers the changes either instance’s sync records to the streams of both', async () => {
    await instanceA.addUser({ username: 'watcher', password: 'watcher-pass-1', role: 'staff' });
    const auth = { Authorization: `Bearer ${await instanceB.login('watcher', 'watcher-pass-1')}` };
    const onA = await SseClient.open(streamUrlOf(instanceA), auth);
    const onB = await SseClient.open(streamUrlOf(instanceB), auth);
    try {
      expect([onA.response.status, onB.response.status]).toEqual([200, 200]);
      const arrived = anOperationsProcess({ numero: 'IMP-2026-000952', updatedAt: '2026-03-02T00:00:00Z' });
      gateway.put(arrived, anOperationsDetail(arrived));
      await syncNow(instanceA);
      const cleared = { ...arrived, status: 'CLEARED' as const, updatedAt: '2026-03-03T00:00:00Z' };
      gateway.put(cleared, anOperationsDetail(cleared));
      await syncNow(instanceB);

      for (const stream of [onA, onB]) {
        const events = await stream.waitForEvents(2, 2000);
        expect(events.map((event) => JSON.parse(event.data) as unknown)).toEqual([
          expect.objectContaining({ kind: 'PROCESS_ADDED', numero: arrived.numero }),
          expect.objectContaining({ kind: 'STATUS_CHANGED', numero: arrived.numero, status: 'CLEARED' }),
        ]);
      }
    } finally {
      onA.close();
      onB.close();
    }
  });

  it('shares the per-user stream limit: streams held on one instance count on the other', async () => {
    const userId = await instanceA.addUser({
      username: 'streamer',
      password: 'streamer-pass-1',
      role: 'staff',
    });
    const headers = { Authorization: `Bearer ${await instanceA.login('streamer', 'streamer-pass-1')}` };
    const leases = `${keyPrefix}change-streams:${userId}`;
    // Each open counts against the per-user request limit too (6 a minute here): no retries.
    const streams = [
      await SseClient.open(streamUrlOf(instanceA), headers),
      await SseClient.open(streamUrlOf(instanceA), headers),
    ];
    try {
      expect(streams.map((stream) => stream.response.status)).toEqual([200, 200]);
      expect(await redis.zcard(leases)).toBe(STREAMS_PER_USER);

      const refused = await fetch(streamUrlOf(instanceB), { headers });
      const problem = (await refused.json()) as { detail?: string };
      expectRateLimited({
        status: refused.status,
        headers: Object.fromEntries(refused.headers),
        body: problem,
      });
      expect(problem.detail).toMatch(/open change streams/);

      streams[0]?.close();
      await waitUntil(async () => (await redis.zcard(leases)) < STREAMS_PER_USER);
      streams.push(await SseClient.open(streamUrlOf(instanceB), headers));
      expect(streams[2]?.response.status).toBe(200);
      expect(await redis.zcard(leases)).toBe(STREAMS_PER_USER);
    } finally {
      for (const stream of streams) stream.close();
    }
  });

  it('keeps every key under its prefix', async () => {
    const keys = await redis.keys(`${keyPrefix}*`);
    expect(keys).toEqual(
      expect.arrayContaining([
        `${keyPrefix}enrichment:${process.numero}`,
        expect.stringMatching(new RegExp(`^${keyPrefix}rate-limit:login:username:`)),
        `${keyPrefix}rate-limit:login:address:203.0.113.7`,
      ]),
    );
  });

  it('keeps an instance whose Redis is down answering: logins, lists, details as cache misses, streams', async () => {
    const instanceC = await startInstance(`redis://127.0.0.1:${await closedPort()}`, instanceA);
    try {
      gateway.detailCalls = [];
      // acme is blocked in the shared counters (first test); C counts in its own memory meanwhile.
      const token = await instanceC.login('acme', 'acme-pass-1');
      await instanceC.http.get('/api/processes').set('Authorization', `Bearer ${token}`).expect(200);
      const detail = await instanceC.http
        .get(`/api/processes/${process.numero}`)
        .set('Authorization', `Bearer ${token}`)
        .expect(200);
      expect(detail.body.enrichment.status).toBe('FRESH');
      expect(gateway.detailCalls).toEqual([process.numero]);

      await instanceC.app.listen(0, '127.0.0.1');
      const stream = await SseClient.open(streamUrlOf(instanceC), { Authorization: `Bearer ${token}` });
      stream.close();
      expect(stream.response.status).toBe(200);
    } finally {
      await instanceC.close();
    }
  });
});
