import { randomBytes } from 'node:crypto';
import { Logger, type OnApplicationShutdown } from '@nestjs/common';
import type { RedisConnection } from '../redis/redis.connection.js';
import { redisFailureWarnings } from '../redis/redis-failure-warnings.js';
import { ChangeStreamLeases, leaseReleasedOnce, type StreamLease } from './change-stream-leases.js';

/** A lease outlives this many missed refreshes, so one slow or failed refresh does not drop it. */
const LEASE_TTL_IN_REFRESHES = 3;

/**
 * `now`: milliseconds by Redis's clock, so that the instances' clocks never matter. A user's set
 * lives as long as its latest lease, whichever instance holds it and however long its leases last.
 */
const PRELUDE = `
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local function expire_with_latest_lease(key)
  local latest = redis.call('ZRANGE', key, -1, -1, 'WITHSCORES')
  if latest[2] then redis.call('PEXPIREAT', key, latest[2]) end
end
`;

/**
 * KEYS[1] the user's leases (id scored by expiry); ARGV: lease id, limit, TTL ms. Drops the expired
 * leases, then adds this one unless the user holds the limit: 1 granted, 0 refused.
 */
const ACQUIRE = `${PRELUDE}
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[2]) then return 0 end
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[3]), ARGV[1])
expire_with_latest_lease(KEYS[1])
return 1
`;

/**
 * KEYS: users' leases; ARGV: TTL ms, then for each key in turn the number of its leases this
 * instance holds and their ids. Extends those (adding any Redis lost or never had) and drops the
 * expired ones of other instances.
 */
const REFRESH = `${PRELUDE}
local ttl = tonumber(ARGV[1])
local at = 2
for _, key in ipairs(KEYS) do
  local count = tonumber(ARGV[at])
  redis.call('ZREMRANGEBYSCORE', key, '-inf', now)
  for i = at + 1, at + count do redis.call('ZADD', key, now + ttl, ARGV[i]) end
  expire_with_latest_lease(key)
  at = at + count + 1
end
return 0
`;

/**
 * Leases in Redis, shared by every instance: per user, a sorted set of lease ids scored by their
 * expiry. An instance refreshes all the leases it holds with one script per interval, so a lease
 * whose instance died without releasing it expires by itself. While Redis fails (down, silent, or
 * skipped by the connection's circuit) a user's streams are counted on this instance alone: the
 * limit stays in force, per instance, and no stream is refused or held up because of Redis. Leases
 * taken meanwhile join Redis with the first refresh that gets through. The multi-key refresh
 * assumes a single Redis (not a cluster).
 */
export class RedisChangeStreamLeases extends ChangeStreamLeases implements OnApplicationShutdown {
  /** The ids of the leases this instance holds, by user. */
  private readonly held = new Map<string, Set<string>>();
  private readonly instanceId = randomBytes(6).toString('hex');
  private issued = 0;
  private readonly ttlMs: number;
  private readonly refresher: NodeJS.Timeout;

  constructor(
    private readonly redis: RedisConnection,
    private readonly keyPrefix: string,
    private readonly limit: number,
    refreshEveryMs: number,
    private readonly failures = redisFailureWarnings(new Logger(RedisChangeStreamLeases.name)),
  ) {
    super();
    this.ttlMs = refreshEveryMs * LEASE_TTL_IN_REFRESHES;
    this.refresher = setInterval(() => void this.refresh(), refreshEveryMs);
    this.refresher.unref();
  }

  async acquire(userId: string): Promise<StreamLease | null> {
    this.issued += 1;
    const leaseId = `${this.instanceId}:${this.issued}`;
    try {
      const granted = await this.redis.run((client) =>
        client.eval(ACQUIRE, 1, this.keyOf(userId), leaseId, this.limit, this.ttlMs),
      );
      if (granted !== 1) return null;
    } catch (error) {
      // A timed-out acquire may still reach Redis later: held here, the lease is refreshed like
      // any other; refused here, it expires unrefreshed.
      this.failures.warn('change streams are counted per instance', error);
      if ((this.held.get(userId)?.size ?? 0) >= this.limit) return null;
    }
    return this.hold(userId, leaseId);
  }

  onApplicationShutdown(): void {
    clearInterval(this.refresher);
  }

  private hold(userId: string, leaseId: string): StreamLease {
    const leases = this.held.get(userId) ?? new Set<string>();
    this.held.set(userId, leases);
    leases.add(leaseId);
    return leaseReleasedOnce(() => {
      leases.delete(leaseId);
      if (leases.size === 0) this.held.delete(userId);
      this.redis
        .run((client) => client.zrem(this.keyOf(userId), leaseId))
        .catch((error: unknown) => this.failures.warn('released change stream leases expire instead', error));
    });
  }

  private async refresh(): Promise<void> {
    if (this.held.size === 0) return;
    const users = [...this.held];
    try {
      await this.redis.run((client) =>
        client.eval(
          REFRESH,
          users.length,
          ...users.map(([userId]) => this.keyOf(userId)),
          this.ttlMs,
          ...users.flatMap(([, leases]) => [leases.size, ...leases]),
        ),
      );
    } catch (error) {
      this.failures.warn('change stream leases are not refreshed', error);
    }
  }

  private keyOf(userId: string): string {
    return `${this.keyPrefix}change-streams:${userId}`;
  }
}
