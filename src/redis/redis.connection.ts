import { Logger, type OnApplicationShutdown } from '@nestjs/common';
import { Redis } from 'ioredis';
import { redisFailureWarnings } from './redis-failure-warnings.js';

/**
 * How long a command may take before its caller gives up on it and works around Redis. Redis
 * answers in well under a millisecond here; a command this slow means a hung server.
 */
export const REDIS_COMMAND_TIMEOUT_MS = 250;
/** While Redis is skipped, how often it is pinged to see whether it answers again. */
export const REDIS_PROBE_INTERVAL_MS = 1000;

/** What ioredis rejects a command with after `commandTimeout`. */
const COMMAND_TIMED_OUT = 'Command timed out';

/** Thrown instead of sending a command while Redis is known to hang. */
export class RedisSkippedError extends Error {
  constructor() {
    super('Redis is skipped until it answers again');
  }
}

/**
 * The shared Redis (rate-limit counters and the detail cache live there so every instance shares
 * them), or none when `REDIS_URL` is unset. Redis is a helper, never a bottleneck: commands fail
 * fast while it is down (no offline queue) and give up on it when it is silent (a command
 * timeout); one timeout opens a circuit, so later commands are refused at once and callers fall
 * back without waiting, while a background ping every second closes it when Redis answers again.
 */
export class RedisConnection implements OnApplicationShutdown {
  private readonly logger = new Logger(RedisConnection.name);
  private probe: NodeJS.Timeout | null = null;

  private constructor(readonly client: Redis | null) {}

  static connect(url: string | null): RedisConnection {
    if (url === null) return new RedisConnection(null);
    const client = new Redis(url, {
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
      connectTimeout: 2000,
      commandTimeout: REDIS_COMMAND_TIMEOUT_MS,
      // Keep reconnecting, at most every 2 s: Redis coming back must heal the service by itself.
      retryStrategy: (attempt) => Math.min(attempt * 200, 2000),
      lazyConnect: false,
      // At shutdown ioredis waits this long for a socket to close, even one that closed already
      // (Redis down): its default 2 s would hold the process that long after everything else.
      disconnectTimeout: REDIS_COMMAND_TIMEOUT_MS,
    });
    const connection = new RedisConnection(client);
    // Reconnect attempts fail every 2 s through an outage: one warning per interval, not per attempt.
    const failures = redisFailureWarnings(connection.logger);
    client.on('error', (error: Error) => failures.warn('reconnecting', error));
    client.on('ready', () => connection.logger.log('Redis connected'));
    return connection;
  }

  get enabled(): boolean {
    return this.client !== null;
  }

  /** True when Redis is configured, connected and answering. */
  get available(): boolean {
    return this.client?.status === 'ready' && this.probe === null;
  }

  /**
   * Runs one command, or refuses at once while Redis is known to hang. Only a timeout opens the
   * circuit: a Redis that is down or not connected yet refuses commands at once anyway (no offline
   * queue), and an error Redis itself answered (a script error, a wrong type) means it is up.
   */
  async run<T>(command: (client: Redis) => Promise<T>): Promise<T> {
    if (this.client === null) throw new Error('Redis is not configured');
    if (this.probe !== null) throw new RedisSkippedError();
    try {
      return await command(this.client);
    } catch (error) {
      if (error instanceof Error && error.message === COMMAND_TIMED_OUT) this.skipUntilItAnswers(this.client);
      throw error;
    }
  }

  private skipUntilItAnswers(client: Redis): void {
    if (this.probe !== null) return;
    this.logger.warn('Redis is failing: skipped, and probed every second, until it answers again');
    this.probe = setInterval(() => {
      client.ping().then(
        () => {
          if (this.probe === null) return;
          clearInterval(this.probe);
          this.probe = null;
          this.logger.log('Redis answers again');
        },
        () => undefined,
      );
    }, REDIS_PROBE_INTERVAL_MS);
    this.probe.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.probe !== null) clearInterval(this.probe);
    if (this.client === null || this.client.status === 'end') return;
    // QUIT needs a live connection; while Redis is down it fails and reconnecting would go on.
    if (this.client.status === 'ready') await this.client.quit().catch(() => undefined);
    this.client.disconnect();
  }
}
