import { jest } from '@jest/globals';
import { JwtService } from '@nestjs/jwt';
import { ProblemException } from '../common/problems/problem.exception.js';
import { PROBLEM_TYPES } from '../common/problems/problem-types.js';
import { loadAppConfig } from '../config/app.config.js';
import type { LoginAttempt, LoginRateLimiter } from '../rate-limit/login-rate-limiter.js';
import { AuthService } from './auth.service.js';
import { AccessTokenIssuer } from './jwt/access-token-issuer.js';
import type { SignInStatus } from './sign-ins/sign-in-status.service.js';
import type { SignInsRepository } from './sign-ins/sign-ins.repository.js';
import { jwtOptionsOf } from './jwt/jwt-options.js';
import type { PasswordHasher } from './password-hasher.service.js';
import type { UserRecord, UsersRepository } from './users/users.repository.js';

const SECRET = 'a-test-secret-that-is-long-enough-0123456789';
const ADDRESS = '198.51.100.7';
const ACME: UserRecord = {
  id: '6f1c1f8e-3c51-4a43-9c6a-1d2b0f7d9a10',
  username: 'acme',
  passwordHash: '$argon2id$acme',
  role: 'customer',
  active: true,
  customerIds: ['acme'],
};
const SIGN_IN_ID = '1b7e0c52-9d1f-4e8a-b3c6-5a2f8d0e7c41';
const PASSWORDS: Record<string, string> = { [ACME.passwordHash]: 'acme-pass-1' };

describe(AuthService.name, () => {
  const config = loadAppConfig({ NODE_ENV: 'test', JWT_SECRET: SECRET, JWT_EXPIRES_IN: '900' });
  /** As AuthModule registers it. */
  const jwt = new JwtService(jwtOptionsOf(config));
  /** Everything that happened, in order: the limiter's calls and the lookups and hash checks. */
  let calls: string[];
  let users: Map<string, UserRecord>;
  let limiter: { begin: jest.Mock<LoginRateLimiter['begin']> };
  let repository: { findByUsername: jest.Mock<UsersRepository['findByUsername']> };
  let hasher: { verify: jest.Mock<PasswordHasher['verify']> };
  let sut: AuthService;

  beforeEach(() => {
    calls = [];
    users = new Map([[ACME.username, ACME]]);
    const attempt: LoginAttempt = {
      succeeded: () => {
        calls.push('succeeded');
        return Promise.resolve();
      },
      abandon: () => {
        calls.push('abandon');
        return Promise.resolve();
      },
    };
    limiter = {
      begin: jest.fn((username: string, address: string | undefined) => {
        calls.push(`begin ${username} ${address}`);
        return Promise.resolve(attempt);
      }),
    };
    repository = {
      findByUsername: jest.fn((username: string) => {
        calls.push(`find ${username}`);
        return Promise.resolve(users.get(username) ?? null);
      }),
    };
    hasher = {
      verify: jest.fn((hash: string | null, password: string) => {
        calls.push(`verify ${hash}`);
        return Promise.resolve(hash !== null && PASSWORDS[hash] === password);
      }),
    };
    sut = new AuthService(
      repository as unknown as UsersRepository,
      hasher as unknown as PasswordHasher,
      new AccessTokenIssuer(jwt),
      config,
      limiter as unknown as LoginRateLimiter,
      { start: () => Promise.resolve(SIGN_IN_ID) } as unknown as SignInsRepository,
      {} as SignInStatus,
      { now: () => new Date('2026-03-14T12:00:00Z') },
    );
  });

  async function failure(promise: Promise<unknown>): Promise<unknown> {
    return promise.then(
      () => {
        throw new Error('expected the login to fail');
      },
      (error: unknown) => error,
    );
  }

  describe('with the right credentials', () => {
    it('answers a Bearer token good for the configured lifetime', async () => {
      const response = await sut.login('acme', 'acme-pass-1', ADDRESS);

      expect(response).toEqual({
        accessToken: expect.any(String),
        tokenType: 'Bearer',
        expiresIn: 900,
        refreshToken: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
        refreshExpiresIn: 604800,
      });
    });

    it('signs an HS256 access token (typ at+jwt) for the user and sign-in, with issuer, audience, lifetime and a jti', async () => {
      const before = Math.floor(Date.now() / 1000);
      const { accessToken } = await sut.login('acme', 'acme-pass-1', ADDRESS);

      const token = await jwt.verifyAsync<{ header: object; payload: Record<string, unknown> }>(accessToken, {
        complete: true,
        algorithms: ['HS256'],
        issuer: 'process-lookup',
        audience: 'process-lookup-api',
      });
      expect(token.header).toEqual({ alg: 'HS256', typ: 'at+jwt' });
      const iat = token.payload.iat as number;
      expect(iat).toBeGreaterThanOrEqual(before);
      expect(token.payload).toEqual({
        sub: ACME.id,
        sid: SIGN_IN_ID,
        iss: 'process-lookup',
        aud: 'process-lookup-api',
        iat,
        exp: iat + 900,
        jti: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/),
      });
    });

    it('gives each token its own jti', async () => {
      const jtiOf = async () =>
        jwt.decode<{ jti: string }>((await sut.login('acme', 'acme-pass-1', ADDRESS)).accessToken).jti;

      expect(await jtiOf()).not.toBe(await jtiOf());
    });

    it('asks the limiter first, then looks up and checks, and settles the attempt as succeeded', async () => {
      await sut.login('acme', 'acme-pass-1', ADDRESS);

      expect(calls).toEqual([
        `begin acme ${ADDRESS}`,
        'find acme',
        `verify ${ACME.passwordHash}`,
        'succeeded',
      ]);
    });

    it('passes an unknown client address to the limiter as it is', async () => {
      await sut.login('acme', 'acme-pass-1', undefined);

      expect(limiter.begin).toHaveBeenCalledWith('acme', undefined);
    });
  });

  describe('with credentials that do not sign in', () => {
    beforeEach(() => {
      users.set('gone', {
        ...ACME,
        id: '00000000-0000-4000-8000-000000000000',
        username: 'gone',
        active: false,
      });
    });

    it.each([
      ['an unknown user', 'nobody', 'acme-pass-1', ['begin nobody', 'find nobody', 'verify null']],
      ['a wrong password', 'acme', 'wrong', ['begin acme', 'find acme', `verify ${ACME.passwordHash}`]],
      [
        'a disabled user with the right password',
        'gone',
        'acme-pass-1',
        ['begin gone', 'find gone', `verify ${ACME.passwordHash}`],
      ],
    ])(
      'answers %s with the one invalid-credentials 401, after the same hash work, and leaves the attempt counted',
      async (_case, username, password, expectedCalls) => {
        const error = await failure(sut.login(username, password, ADDRESS));

        expect(error).toBeInstanceOf(ProblemException);
        const problem = error as ProblemException;
        expect(problem.problem.type).toBe('/problems/invalid-credentials');
        expect(problem.getStatus()).toBe(401);
        expect(problem.problemOptions).toEqual({ detail: 'The user name or password is incorrect' });
        // Neither settled: the attempt the limiter counted stays a failure.
        expect(calls.map((call) => call.replace(` ${ADDRESS}`, ''))).toEqual(expectedCalls);
      },
    );

    it('checks the password of an unknown user against no hash, so the hasher does its decoy work', async () => {
      await failure(sut.login('nobody', 'whatever', ADDRESS));

      expect(hasher.verify).toHaveBeenCalledWith(null, 'whatever');
    });
  });

  describe('when the limiter refuses', () => {
    it('passes its 429 on without looking the user up or hashing anything', async () => {
      const refusal = new ProblemException(PROBLEM_TYPES.rateLimited, {
        detail: 'Too many failed login attempts; try again later',
        headers: { 'Retry-After': '60' },
      });
      limiter.begin.mockRejectedValue(refusal);

      expect(await failure(sut.login('acme', 'acme-pass-1', ADDRESS))).toBe(refusal);
      expect(repository.findByUsername).not.toHaveBeenCalled();
      expect(hasher.verify).not.toHaveBeenCalled();
    });
  });

  describe('when the check itself fails', () => {
    it('abandons the attempt (it was neither right nor wrong) and passes the lookup error on', async () => {
      const outage = new Error('database unavailable');
      repository.findByUsername.mockRejectedValue(outage);

      expect(await failure(sut.login('acme', 'acme-pass-1', ADDRESS))).toBe(outage);
      expect(calls).toEqual([`begin acme ${ADDRESS}`, 'abandon']);
      expect(hasher.verify).not.toHaveBeenCalled();
    });

    it('abandons the attempt when the hasher fails', async () => {
      const failed = new Error('out of memory');
      hasher.verify.mockRejectedValue(failed);

      expect(await failure(sut.login('acme', 'acme-pass-1', ADDRESS))).toBe(failed);
      expect(calls).toEqual([`begin acme ${ADDRESS}`, 'find acme', 'abandon']);
    });
  });
});
