import { setTimeout as sleep } from 'node:timers/promises';
import { Logger } from '@nestjs/common';
import { ReplyError } from 'ioredis';
import { closedPort } from '../testing/closed-port.js';
import { TcpProxy } from '../testing/tcp-proxy.js';
import { TEST_REDIS_URL, testRedisAnswers, whenReady } from '../testing/test-redis.js';
import {
  REDIS_COMMAND_TIMEOUT_MS,
  REDIS_PROBE_INTERVAL_MS,
  RedisConnection,
  RedisSkippedError,
} from './redis.connection.js';

const redisAnswers = await testRedisAnswers('RedisConnection (real Redis)');

(redisAnswers ? describe : describe.skip)(`${RedisConnection.name} with a Redis that hangs`, () => {
  let proxy: TcpProxy;
  let sut: RedisConnection;

  beforeAll(async () => {
    Logger.overrideLogger(false);
    const server = new URL(TEST_REDIS_URL);
    proxy = await TcpProxy.start({ host: server.hostname, port: Number(server.port || 6379) });
    sut = await whenReady(RedisConnection.connect(proxy.urlFor(TEST_REDIS_URL)));
  });

  afterAll(async () => {
    proxy.resume();
    await sut.onApplicationShutdown();
    await proxy.close();
    Logger.overrideLogger(['log', 'error', 'warn', 'debug', 'verbose', 'fatal']);
  });

  it('passes errors Redis answers on without skipping it', async () => {
    await expect(
      sut.run((client) => client.eval('return redis.call("NO-SUCH-COMMAND")', 0)),
    ).rejects.toBeInstanceOf(ReplyError);
    expect(sut.available).toBe(true);
    await expect(sut.run((client) => client.ping())).resolves.toBe('PONG');
  });

  it('gives up on a silent Redis after the command timeout, then skips it at once until it answers again', async () => {
    proxy.freeze();
    await expect(sut.run((client) => client.ping())).rejects.toThrow(/timed out/i);
    expect(sut.available).toBe(false);

    // Skipped: no command reaches the server while the circuit is open.
    const sentBefore = proxy.bytesToServer;
    for (let attempt = 0; attempt < 20; attempt++) {
      await expect(sut.run((client) => client.get('anything'))).rejects.toBeInstanceOf(RedisSkippedError);
    }
    expect(proxy.bytesToServer).toBe(sentBefore);

    proxy.resume();
    for (let waited = 0; !sut.available && waited < 5 * REDIS_PROBE_INTERVAL_MS; waited += 100)
      await sleep(100);
    expect(sut.available).toBe(true);
    await expect(sut.run((client) => client.ping())).resolves.toBe('PONG');
  });
});

describe(`${RedisConnection.name} while Redis is down`, () => {
  beforeAll(() => {
    Logger.overrideLogger(false);
  });
  afterAll(() => {
    Logger.overrideLogger(['log', 'error', 'warn', 'debug', 'verbose', 'fatal']);
  });

  // ioredis ends a closed socket at shutdown and waits for a close that already happened: the
  // process lingers for that wait, 2 s by default (Jest's "worker failed to exit gracefully").
  it('shuts down without waiting longer than the command timeout for a socket that is gone', async () => {
    const sut = RedisConnection.connect(`redis://127.0.0.1:${await closedPort()}`);
    while (sut.client?.status !== 'reconnecting') await sleep(20);

    await sut.onApplicationShutdown();

    expect(sut.client.options.disconnectTimeout).toBe(REDIS_COMMAND_TIMEOUT_MS);
    expect(sut.available).toBe(false);
  });
});
