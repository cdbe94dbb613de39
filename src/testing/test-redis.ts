import { randomBytes } from 'node:crypto';
import { Logger } from '@nestjs/common';
import { Redis } from 'ioredis';
import { RedisConnection } from '../redis/redis.connection.js';
import { closedPort } from './closed-port.js';

/** The Redis the Redis suites use: `TEST_REDIS_URL`, or the local default. */
export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/**
 * Whether the Redis suites can run: true when the test Redis answers a PING. Outside CI a Redis
 * that does not answer skips the suite with a message; in CI (`CI=true`) it is an error, because
 * there the suites must run.
 */
export async function testRedisAnswers(suite: string): Promise<boolean> {
  const client = new Redis(TEST_REDIS_URL, {
    lazyConnect: true,
    connectTimeout: 1000,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.ping();
    return true;
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    if (process.env.CI === 'true') {
      throw new Error(
        `${suite}: Redis at ${TEST_REDIS_URL} does not answer (${reason}); CI must run this suite`,
      );
    }
    console.error(`${suite}: SKIPPED, no Redis answers at ${TEST_REDIS_URL} (${reason})`);
    return false;
  } finally {
    client.disconnect();
  }
}

/** A key prefix of its own for a test file, so runs never see each other's keys. */
export function uniqueKeyPrefix(): string {
  return `process-lookup-test:${randomBytes(6).toString('hex')}:`;
}

/** Deletes every key under `prefix`. */
export async function deleteKeys(client: Redis, prefix: string): Promise<void> {
  let cursor = '0';
  do {
    const [next, keys] = await client.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
    if (keys.length > 0) await client.del(...keys);
    cursor = next;
  } while (cursor !== '0');
}

/** Resolves once `connection` can take commands (it refuses them while connecting). */
export async function whenReady(connection: RedisConnection): Promise<RedisConnection> {
  const client = connection.client!;
  if (client.status !== 'ready') await new Promise((resolve) => client.once('ready', resolve));
  return connection;
}

/**
 * For a suite about Redis being down: a connection to a port nothing listens on, opened before the
 * suite's tests and closed after them, with Nest's logger silenced meanwhile (the connection logs
 * every failed attempt).
 */
export function useUnreachableRedis(): () => RedisConnection {
  let connection: RedisConnection;
  beforeAll(async () => {
    Logger.overrideLogger(false);
    connection = RedisConnection.connect(`redis://127.0.0.1:${await closedPort()}`);
  });
  afterAll(async () => {
    await connection.onApplicationShutdown();
    Logger.overrideLogger(['log', 'error', 'warn', 'debug', 'verbose', 'fatal']);
  });
  return () => connection;
}
