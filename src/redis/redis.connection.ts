import { Logger, type OnApplicationShutdown } from '@nestjs/common';
import { Redis } from 'ioredis';
import { RedisFailureLog } from './redis-failure-log.js';

/**
 * The shared Redis (CONTRACT §6: rate-limit counters and the detail cache live there so every
 * instance shares them), or none when `REDIS_URL` is unset. Commands fail fast while Redis is
 * down instead of queueing, so callers can fall back and the service keeps answering.
 */
export class RedisConnection implements OnApplicationShutdown {
  private readonly logger = new Logger(RedisConnection.name);

  private constructor(readonly client: Redis | null) {}

  static connect(url: string | null): RedisConnection {
    if (url === null) return new RedisConnection(null);
    const client = new Redis(url, {
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
      connectTimeout: 2000,
      // Keep reconnecting, at most every 2 s: Redis coming back must heal the service by itself.
      retryStrategy: (attempt) => Math.min(attempt * 200, 2000),
      lazyConnect: false,
    });
    const connection = new RedisConnection(client);
    // Reconnect attempts fail every 2 s through an outage: one warning per interval, not per attempt.
    const failures = new RedisFailureLog(connection.logger);
    client.on('error', (error: Error) => failures.warn('reconnecting', error));
    client.on('ready', () => connection.logger.log('Redis connected'));
    return connection;
  }

  get enabled(): boolean {
    return this.client !== null;
  }

  /** True when Redis is configured and the connection is up. */
  get available(): boolean {
    return this.client?.status === 'ready';
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.client === null || this.client.status === 'end') return;
    // QUIT needs a live connection; while Redis is down it fails and reconnecting would go on.
    if (this.client.status === 'ready') await this.client.quit().catch(() => undefined);
    this.client.disconnect();
  }
}
