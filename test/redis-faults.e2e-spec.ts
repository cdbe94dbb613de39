import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { OperationsGateway } from '../src/operations/operations.gateway.js';
import { REDIS_KEY_PREFIX } from '../src/redis/redis-key-prefix.js';
import { REDIS_PROBE_INTERVAL_MS } from '../src/redis/redis.connection.js';
import { anOperationsProcess } from '../src/testing/operations-process.factory.js';
import { FakeOperationsGateway } from '../src/testing/fake-operations.gateway.js';
import { SseClient } from './support/sse-client.js';
import { syncNow } from './support/sync-now.js';
import { TcpProxy } from '../src/testing/tcp-proxy.js';
import { TestApp } from './support/test-app.js';
import { deleteKeys, TEST_REDIS_URL, testRedisAnswers, uniqueKeyPrefix } from '../src/testing/test-redis.js';

const redisAnswers = await testRedisAnswers('Redis fault suite');
const PER_USER_LIMIT = 12;

(redisAnswers ? describe : describe.skip)('the service when its Redis hangs', () => {
  const keyPrefix = uniqueKeyPrefix();
  let proxy: TcpProxy;
  let testApp: TestApp;
  let token: string;

  beforeAll(async () => {
    const server = new URL(TEST_REDIS_URL);
    proxy = await TcpProxy.start({ host: server.hostname, port: Number(server.port || 6379) });
    const gateway = new FakeOperationsGateway().putAll(anOperationsProcess(), anOperationsProcess());
    testApp = await TestApp.start({
      env: {
        REDIS_URL: proxy.urlFor(TEST_REDIS_URL),
        RATE_LIMIT_PER_USER_PER_MINUTE: String(PER_USER_LIMIT),
      },
      override: (builder) =>
        builder
          .overrideProvider(OperationsGateway)
          .useValue(gateway)
          .overrideProvider(REDIS_KEY_PREFIX)
          .useValue(keyPrefix),
    });
    await syncNow(testApp);
    await testApp.addUser({ username: 'acme', password: 'acme-pass-1', customerIds: ['acme'] });
    for (let waited = 0; !(await redisReported('up')) && waited < 5000; waited += 100) await sleep(100);
    token = await testApp.login('acme', 'acme-pass-1');
  });

  afterAll(async () => {
    proxy.resume();
    await testApp.close();
    await proxy.close();
    const redis = new Redis(TEST_REDIS_URL);
    await deleteKeys(redis, keyPrefix);
    redis.disconnect();
  });

  const list = () => testApp.http.get('/api/processes').set('Authorization', `Bearer ${token}`);

  async function redisReported(status: 'up' | 'degraded'): Promise<boolean> {
    const response = await testApp.http.get('/health/ready');
    return (response.body as { details?: { redis?: { status?: string } } }).details?.redis?.status === status;
  }

  it('skips a hung Redis after its first timeout, keeps limits in memory, reports it degraded, and heals', async () => {
    await list().expect(200);

    proxy.freeze();
    // The request that meets the hang does not wait for it: far below the limit, its count in
    // Redis goes on behind the answer, and that command's one timeout opens the circuit.
    await list().expect(200);
    for (let waited = 0; !(await redisReported('degraded')) && waited < 2000; waited += 50) await sleep(50);
    expect(await redisReported('degraded')).toBe(true);

    // From then on no request waits on Redis, because none of them sends it anything: neither
    // the lists nor a change stream, whose lease is counted in this instance's memory.
    const sentBefore = proxy.bytesToServer;
    for (let request = 0; request < 10; request++) await list().expect(200);
    await testApp.app.listen(0, '127.0.0.1');
    const { port } = testApp.app.getHttpServer().address() as AddressInfo;
    const stream = await SseClient.open(`http://127.0.0.1:${port}/api/changes/stream`, {
      Authorization: `Bearer ${token}`,
    });
    stream.close();
    expect(stream.response.status).toBe(200);
    const sentDuringSkip = proxy.bytesToServer - sentBefore;
    // At most the background probe's PINGs (14 bytes each, one a second) reached the frozen proxy.
    expect(sentDuringSkip).toBeLessThan(100);

    // The per-user limit still holds, counted in this instance's memory meanwhile.
    const statuses: number[] = [];
    for (let request = 0; request < PER_USER_LIMIT; request++) statuses.push((await list()).status);
    expect(statuses).toContain(429);

    // So do the login limits: 10 failures for a name from this address lock it here.
    const login = (password: string) =>
      testApp.http.post('/api/auth/login').send({ username: 'acme', password });
    for (let attempt = 0; attempt < 10; attempt++) await login('wrong').expect(401);
    await login('acme-pass-1').expect(429);

    proxy.resume();
    for (
      let waited = 0;
      !(await redisReported('up')) && waited < 5 * REDIS_PROBE_INTERVAL_MS;
      waited += 100
    ) {
      await sleep(100);
    }
    expect(await redisReported('up')).toBe(true);
    const sentBeforeHealed = proxy.bytesToServer;
    await list();
    expect(proxy.bytesToServer).toBeGreaterThan(sentBeforeHealed);
  });
});
