import { jest } from '@jest/globals';
import type { ExecutionContext } from '@nestjs/common';
import { FakeClock } from '../testing/fake-clock.js';
import type { AuthenticatedUser } from '../domain/authenticated-user.js';
import { ProblemException } from '../common/problems/problem.exception.js';
import type { AppConfig } from '../config/app.config.js';
import type { RateLimitMetrics, RateLimiterName } from './rate-limit.metrics.js';
import { MemoryRateLimitStore } from './memory-rate-limit.store.js';
import { UserRateLimitGuard } from './user-rate-limit.guard.js';

const LIMIT = 3;

describe(UserRateLimitGuard.name, () => {
  let clock: FakeClock;
  let rejected: jest.Mock<(limiter: RateLimiterName) => void>;
  let sut: UserRateLimitGuard;

  beforeEach(() => {
    clock = new FakeClock();
    rejected = jest.fn();
    sut = new UserRateLimitGuard(
      new MemoryRateLimitStore(clock),
      { rateLimits: { perUserPerMinute: LIMIT } } as AppConfig,
      { rejected } as unknown as RateLimitMetrics,
    );
  });

  function request(user: Partial<AuthenticatedUser> | undefined) {
    const headers = new Map<string, string>();
    const context = {
      switchToHttp: () => ({
        getRequest: () => ({ user }),
        getResponse: () => ({ setHeader: (name: string, value: string) => headers.set(name, value) }),
      }),
    } as unknown as ExecutionContext;
    return { context, headers };
  }

  it('lets anonymous requests through uncounted and without headers', async () => {
    const { context, headers } = request(undefined);
    for (let call = 0; call < LIMIT + 1; call += 1) expect(await sut.canActivate(context)).toBe(true);
    expect(headers.size).toBe(0);
  });

  it('counts a user and says on each answer what is left of the window', async () => {
    const first = request({ id: 'u1' });
    expect(await sut.canActivate(first.context)).toBe(true);
    expect(Object.fromEntries(first.headers)).toEqual({
      'RateLimit-Policy': `"per-user";q=${LIMIT};w=60`,
      RateLimit: `"per-user";r=${LIMIT - 1};t=60`,
    });

    clock.advance(15_000);
    const second = request({ id: 'u1' });
    await sut.canActivate(second.context);
    expect(second.headers.get('RateLimit')).toBe(`"per-user";r=${LIMIT - 2};t=45`);
  });

  it('refuses past the limit with a 429 that carries Retry-After and the headers, until the window ends', async () => {
    for (let call = 0; call < LIMIT; call += 1) await sut.canActivate(request({ id: 'u1' }).context);
    clock.advance(20_000);

    const refused = await sut.canActivate(request({ id: 'u1' }).context).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(ProblemException);
    expect((refused as ProblemException).problem.status).toBe(429);
    expect((refused as ProblemException).problemOptions).toEqual({
      detail: `More than ${LIMIT} requests a minute; slow down`,
      headers: {
        'Retry-After': '40',
        'RateLimit-Policy': `"per-user";q=${LIMIT};w=60`,
        RateLimit: '"per-user";r=0;t=40',
      },
    });
    expect(rejected).toHaveBeenCalledWith('per-user');

    // Another user has a counter of their own.
    expect(await sut.canActivate(request({ id: 'u2' }).context)).toBe(true);
    clock.advance(40_000);
    expect(await sut.canActivate(request({ id: 'u1' }).context)).toBe(true);
  });
});
