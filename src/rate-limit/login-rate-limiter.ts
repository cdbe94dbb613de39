import { createHash } from 'node:crypto';
import { Injectable, Optional } from '@nestjs/common';
import { ProblemException } from '../common/problems/problem.exception.js';
import { PROBLEM_TYPES } from '../common/problems/problem-types.js';
import { RateLimitMetrics, type RateLimiterName } from './rate-limit.metrics.js';
import { clientAddressKey } from './client-address.js';
import { RateLimitStore, toSeconds, type LimitWindow } from './rate-limit.store.js';

const FIFTEEN_MINUTES_MS = 15 * 60 * 1000;

/**
 * Failed logins within 15 minutes (see "Rate limits" in docs/operations.md): a user name from one address
 * is locked first, an address trying many names next, and a user name across every address only
 * at a higher cap, so one address cannot lock a user out everywhere.
 */
export const LOGIN_LIMITS = {
  perUsernameAndAddress: { limit: 10, windowMs: FIFTEEN_MINUTES_MS },
  perAddress: { limit: 50, windowMs: FIFTEEN_MINUTES_MS },
  perUsername: { limit: 100, windowMs: FIFTEEN_MINUTES_MS },
} as const;

/** The metric label of each window, in the order {@link LoginRateLimiter} passes them. */
const LIMITER_NAMES: readonly RateLimiterName[] = [
  'login-username-address',
  'login-address',
  'login-username',
];

/** The counters of a user name, and of a client id: apart, so neither can lock the other out. */
const LOGIN_KEYS: { nameAndAddress: string; name: string } = {
  nameAndAddress: 'login:username-address',
  name: 'login:username',
};
const CLIENT_KEYS: typeof LOGIN_KEYS = { nameAndAddress: 'login:client-address', name: 'login:client' };

/** An attempt let through and provisionally counted as a failure; settle it if it was not one. */
export interface LoginAttempt {
  /**
   * Right credentials: the failures of this user name from this address are forgotten and this
   * attempt is not counted. The address's and the user name's other failures stay (they may come
   * from someone else).
   */
  succeeded(): Promise<void>;
  /** Neither right nor wrong (the check itself failed): this attempt is not counted. */
  abandon(): Promise<void>;
}

/**
 * The failed-login limits. Called before the password is checked, so a blocked attempt costs no
 * hash work, and counts the attempt at once (given back unless it fails): concurrent guesses
 * cannot slip past the limit. Unknown user names are counted exactly like known ones, so a 429
 * says nothing about which exist. User names are counted case- and whitespace-insensitively and
 * stored only as a hash; addresses as {@link clientAddressKey} says (IPv6 by /64).
 */
@Injectable()
export class LoginRateLimiter {
  constructor(
    private readonly store: RateLimitStore,
    // Absent only where the app is partly assembled (module tests without MetricsModule).
    @Optional() private readonly metrics?: RateLimitMetrics,
  ) {}

  /** @throws ProblemException 429 `/problems/rate-limited` while any limit is reached. */
  begin(username: string, clientAddress: string | undefined): Promise<LoginAttempt> {
    return this.beginFor(LOGIN_KEYS, hashOf(normalizeUsername(username)), clientAddress);
  }

  /**
   * A client application authenticating at the token endpoint: counted like a login, its client id
   * standing for the user name (the address's failures are the same count as logins').
   * @throws ProblemException 429 `/problems/rate-limited` while any limit is reached.
   */
  beginForClient(clientId: string, clientAddress: string | undefined): Promise<LoginAttempt> {
    return this.beginFor(CLIENT_KEYS, hashOf(clientId), clientAddress);
  }

  private async beginFor(
    keys: typeof LOGIN_KEYS,
    name: string,
    clientAddress: string | undefined,
  ): Promise<LoginAttempt> {
    const address = clientAddressKey(clientAddress);
    const pairKey = `${keys.nameAndAddress}:${name}:${address}`;
    const addressKey = `login:address:${address}`;
    const usernameKey = `${keys.name}:${name}`;
    const windows: LimitWindow[] = [
      { key: pairKey, ...LOGIN_LIMITS.perUsernameAndAddress },
      { key: addressKey, ...LOGIN_LIMITS.perAddress },
      { key: usernameKey, ...LOGIN_LIMITS.perUsername },
    ];
    await this.reserve(windows, LIMITER_NAMES);
    return {
      succeeded: async () => {
        await this.store.reset([pairKey]);
        await this.store.release([addressKey, usernameKey]);
      },
      abandon: () => this.store.release([pairKey, addressKey, usernameKey]),
    };
  }

  /**
   * A refresh or a logout, which presents a token rather than a user name: counted, like a login,
   * against the client address's failures only.
   * @throws ProblemException 429 `/problems/rate-limited` while the address's limit is reached.
   */
  async beginForAddress(clientAddress: string | undefined): Promise<LoginAttempt> {
    const addressKey = `login:address:${clientAddressKey(clientAddress)}`;
    await this.reserve([{ key: addressKey, ...LOGIN_LIMITS.perAddress }], ['login-address']);
    const release = () => this.store.release([addressKey]);
    return { succeeded: release, abandon: release };
  }

  private async reserve(windows: LimitWindow[], names: readonly RateLimiterName[]): Promise<void> {
    const reserved = await this.store.reserve(windows);
    if (!reserved.allowed) {
      this.metrics?.rejected(names[reserved.window]!);
      // One answer for every limit: which one was hit is nothing a guesser should learn.
      throw new ProblemException(PROBLEM_TYPES.rateLimited, {
        detail: 'Too many failed login attempts; try again later',
        headers: { 'Retry-After': String(Math.max(1, toSeconds(reserved.retryAfterMs))) },
      });
    }
  }
}

/** `" ACME  Corp "` and `"acme corp"` are one user name for counting. */
export function normalizeUsername(username: string): string {
  return username.normalize('NFKC').trim().replace(/\s+/g, ' ').toLowerCase();
}

function hashOf(value: string): string {
  return createHash('sha256').update(value).digest('base64url');
}
