import { CanActivate, ExecutionContext, Injectable, Optional } from '@nestjs/common';
import type { Request } from 'express';
import type { AuthenticatedUser } from '../auth/authenticated-user.js';
import { ProblemException } from '../common/problems/problem.exception.js';
import { PROBLEM_TYPES } from '../common/problems/problem-types.js';
import { AppConfig } from '../config/app.config.js';
import { RateLimitMetrics } from '../metrics/rate-limit.metrics.js';
import { RateLimitStore } from './rate-limit.store.js';

const ONE_MINUTE_MS = 60_000;

/**
 * The per-user request limit (CONTRACT §6: `RATE_LIMIT_PROCESSES_PER_MINUTE` on
 * `/api/processes*`, which today are all the authenticated routes): one counter a user across
 * every route, a fixed one-minute window; over the limit, 429 until the window ends. Keyed by
 * user id, so it must run after the JWT guard: registered as a global guard right after it.
 * Anonymous requests (public routes) are not counted here; the login has its own limit.
 */
@Injectable()
export class UserRateLimitGuard implements CanActivate {
  constructor(
    private readonly store: RateLimitStore,
    private readonly config: AppConfig,
    // Absent only where the app is partly assembled (module tests without MetricsModule).
    @Optional() private readonly metrics?: RateLimitMetrics,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const user = context.switchToHttp().getRequest<Request & { user?: AuthenticatedUser }>().user;
    if (user === undefined) return true;
    const limit = this.config.rateLimits.processesPerMinute;
    // Block duration 0: refused until the window ends.
    const { isBlocked, timeToBlockExpire } = await this.store.increment(
      `user:${user.id}`,
      ONE_MINUTE_MS,
      limit,
      0,
    );
    if (!isBlocked) return true;
    this.metrics?.rejected('processes');
    throw new ProblemException(PROBLEM_TYPES.rateLimited, {
      detail: `More than ${limit} requests a minute; slow down`,
      headers: { 'Retry-After': String(Math.max(1, timeToBlockExpire)) },
    });
  }
}
