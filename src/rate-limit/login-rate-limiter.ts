import { createHash } from 'node:crypto';
import { Injectable, Optional } from '@nestjs/common';
import { ProblemException } from '../common/problems/problem.exception.js';
import { PROBLEM_TYPES } from '../common/problems/problem-types.js';
import { RateLimitMetrics } from '../metrics/rate-limit.metrics.js';
import { clientAddressKey } from './client-address.js';
import { RateLimitStore, toSeconds, type LimitWindow } from './rate-limit.store.js';

const FIFTEEN_MINUTES_MS = 15 * 60 * 1000;

/** CONTRACT §6: failed logins, per user name and per client address. */
export const LOGIN_LIMITS = {
  perUsername: { limit: 10, windowMs: FIFTEEN_MINUTES_MS },
  perAddress: { limit: 50, windowMs: FIFTEEN_MINUTES_MS },
} as const;

/** An attempt let through and provisionally counted as a failure; settle it if it was not one. */
export interface LoginAttempt {
  /** Right credentials: the user name's failures are forgotten and this attempt is not counted. */
  succeeded(): Promise<void>;
  /** Neither right nor wrong (the check itself failed): this attempt is not counted. */
  abandon(): Promise<void>;
}

/**
 * The failed-login limit. Called before the password is checked, so a blocked attempt costs no
 * hash work, and counts the attempt at once (given back unless it fails): concurrent guesses
 * cannot slip past the limit. Unknown user names are counted exactly like known ones, so a 429
 * says nothing about which exist. User names are counted case- and whitespace-insensitively and
 * stored only as a hash.
 */
@Injectable()
export class LoginRateLimiter {
  constructor(
    private readonly store: RateLimitStore,
    // Absent only where the app is partly assembled (module tests without MetricsModule).
    @Optional() private readonly metrics?: RateLimitMetrics,
  ) {}

  /** @throws ProblemException 429 `/problems/rate-limited` while either limit is reached. */
  async begin(username: string, clientAddress: string | undefined): Promise<LoginAttempt> {
    const usernameKey = `login:username:${hashOf(normalizeUsername(username))}`;
    const addressKey = `login:address:${clientAddressKey(clientAddress)}`;
    const windows: LimitWindow[] = [
      { key: usernameKey, ...LOGIN_LIMITS.perUsername },
      { key: addressKey, ...LOGIN_LIMITS.perAddress },
    ];
    const reserved = await this.store.reserve(windows);
    if (!reserved.allowed) {
      this.metrics?.rejected(reserved.window === 0 ? 'login-username' : 'login-address');
      // One answer for both limits: which one was hit is nothing a guesser should learn.
      throw new ProblemException(PROBLEM_TYPES.rateLimited, {
        detail: 'Too many failed login attempts; try again later',
        headers: { 'Retry-After': String(Math.max(1, toSeconds(reserved.retryAfterMs))) },
      });
    }
    return {
      succeeded: async () => {
        await this.store.reset([usernameKey]);
        await this.store.release([addressKey]);
      },
      abandon: () => this.store.release([usernameKey, addressKey]),
    };
  }
}

/** `" ACME  Corp "` and `"acme corp"` are one user name for counting. */
export function normalizeUsername(username: string): string {
  return username.normalize('NFKC').trim().replace(/\s+/g, ' ').toLowerCase();
}

function hashOf(value: string): string {
  return createHash('sha256').update(value).digest('base64url');
}
