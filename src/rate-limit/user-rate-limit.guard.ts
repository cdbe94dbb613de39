import { CanActivate, ExecutionContext, Injectable, Optional } from '@nestjs/common';
import type { Request, Response } from 'express';
import type { AuthenticatedUser } from '../domain/authenticated-user.js';
import { ProblemException } from '../common/problems/problem.exception.js';
import { PROBLEM_TYPES } from '../common/problems/problem-types.js';
import { AppConfig } from '../config/app.config.js';
import { RateLimitMetrics } from './rate-limit.metrics.js';
import { RateLimitStore } from './rate-limit.store.js';
import { rateLimitHeaders } from './rate-limit.headers.js';

const ONE_MINUTE_MS = 60_000;

/**
 * The per-user request limit (`RATE_LIMIT_PER_USER_PER_MINUTE`): one counter a user across every
 * authenticated route (`/api/processes*`, `/api/changes*`, and whatever route is added without
 * `@Public()`), a fixed one-minute window; over the limit, 429 until the window ends. Every counted
 * answer, the 429 included, carries the `RateLimit-Policy` and `RateLimit` headers; they are set
 * here, before the handler runs, so errors and 304s keep them.
 *
 * Keyed by user id, so it must run after the JWT guard: registered as a global guard right after
 * it. Anonymous requests (public routes) are not counted here; the login has its own limit.
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
    const http = context.switchToHttp();
    const user = http.getRequest<Request & { user?: AuthenticatedUser }>().user;
    if (user === undefined) return true;
    const limit = this.config.rateLimits.perUserPerMinute;
    // Block duration 0: refused until the window ends.
    const record = await this.store.increment(`user:${user.id}`, ONE_MINUTE_MS, limit, 0);
    const headers = rateLimitHeaders(limit, ONE_MINUTE_MS, record);
    if (!record.isBlocked) {
      const response = http.getResponse<Response>();
      for (const [name, value] of Object.entries(headers)) response.setHeader(name, value);
      return true;
    }
    this.metrics?.rejected('per-user');
    throw new ProblemException(PROBLEM_TYPES.rateLimited, {
      detail: `More than ${limit} requests a minute; slow down`,
      headers: { ...headers, 'Retry-After': String(Math.max(1, record.timeToBlockExpire)) },
    });
  }
}
