import { jest } from '@jest/globals';
import { Controller, Get, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { JwtService } from '@nestjs/jwt';
import type { Request } from 'express';
import { ProblemException } from '../../common/problems/problem.exception.js';
import { loadAppConfig } from '../../config/app.config.js';
import type { AuthenticatedUser } from '../../domain/authenticated-user.js';
import { USER_GRANT } from '../access/access-grant.js';
import type { AccessResolver } from '../access/access-resolver.js';
import type { TokenSubject } from './token-subject.js';
import { JwtAuthGuard } from './jwt-auth.guard.js';
import { ACCESS_TOKEN_TYPE, JwtStrategy } from './jwt.strategy.js';
import { Public } from '../../common/http/public.decorator.js';
import { VerifiedTokens } from './verified-tokens.js';

const SECRET = 'a-test-secret-that-is-long-enough-0123456789';
const USER: AuthenticatedUser = {
  id: '6f1c1f8e-3c51-4a43-9c6a-1d2b0f7d9a10',
  username: 'acme',
  role: 'customer',
  customerIds: ['acme'],
};

@Controller()
class ExampleController {
  @Get()
  locked(): void {}

  @Get()
  @Public()
  open(): void {}
}

@Public()
@Controller()
class OpenController {
  @Get()
  anything(): void {}
}

function contextFor(request: Partial<Request>, handler: () => void, controller: object): ExecutionContext {
  const http = { getRequest: () => request, getResponse: () => ({}), getNext: () => undefined };
  return {
    getType: () => 'http',
    switchToHttp: () => http,
    getHandler: () => handler,
    getClass: () => controller,
    getArgs: () => [request, {}, undefined],
  } as unknown as ExecutionContext;
}

describe(JwtAuthGuard.name, () => {
  const config = loadAppConfig({ NODE_ENV: 'test', JWT_SECRET: SECRET });
  /** Access tokens' header by default, so each refusal below is for the one thing it names. */
  const header = { alg: 'HS256', typ: ACCESS_TOKEN_TYPE };
  const jwt = new JwtService({
    secret: SECRET,
    signOptions: {
      algorithm: 'HS256',
      expiresIn: 3600,
      issuer: config.jwt.issuer,
      audience: config.jwt.audience,
      header,
    },
  });
  /** No default `exp`: for tokens whose `exp` a test sets itself, or leaves out. */
  const plainJwt = new JwtService({
    secret: SECRET,
    signOptions: { algorithm: 'HS256', issuer: config.jwt.issuer, audience: config.jwt.audience, header },
  });
  let disabled = false;
  const access = {
    resolve: (subject: TokenSubject) =>
      Promise.resolve(
        subject.kind === 'user' && subject.userId === USER.id && !disabled
          ? { user: USER, grant: USER_GRANT }
          : null,
      ),
  } as AccessResolver;
  const verifiedTokens = new VerifiedTokens();
  // Constructing the strategy registers it with passport, as Nest does at start-up.
  new JwtStrategy(config, access, verifiedTokens);
  const sut = new JwtAuthGuard(new Reflector(), verifiedTokens, access);
  afterEach(() => (disabled = false));
  const locked = ExampleController.prototype.locked;

  const bearer = (token: string): Partial<Request> => ({ headers: { authorization: `Bearer ${token}` } });

  async function refusal(request: Partial<Request>): Promise<ProblemException> {
    const outcome = await Promise.resolve()
      .then(() => sut.canActivate(contextFor(request, locked, ExampleController)))
      .then(
        (allowed) => allowed,
        (error: unknown) => error,
      );
    expect(outcome).toBeInstanceOf(ProblemException);
    return outcome as ProblemException;
  }

  it.each([
    ['a public route', ExampleController.prototype.open, ExampleController],
    ['a route of a public controller', OpenController.prototype.anything, OpenController],
  ])('lets anyone through to %s', async (_case, handler, controller) => {
    expect(await sut.canActivate(contextFor({ headers: {} }, handler, controller))).toBe(true);
  });

  it('lets a valid token through and puts its user and what it may do on the request', async () => {
    const request = bearer(await jwt.signAsync({ sub: USER.id }, { jwtid: 'j1' }));

    expect(await sut.canActivate(contextFor(request, locked, ExampleController))).toBe(true);
    expect((request as { user?: unknown }).user).toEqual(USER);
    expect((request as { accessGrant?: unknown }).accessGrant).toBe(USER_GRANT);
  });

  it('answers a missing token with 401 unauthorized and the realm only (RFC 6750)', async () => {
    const error = await refusal({ headers: {} });

    expect(error.getStatus()).toBe(401);
    expect(error.problem.type).toBe('/problems/unauthorized');
    expect(error.problemOptions.headers).toEqual({ 'WWW-Authenticate': 'Bearer realm="process-lookup"' });
    expect(error.problemOptions.detail).toMatch(/bearer token is required/);
  });

  const now = () => Math.floor(Date.now() / 1000);
  const unsigned = (header: object, claims: object) =>
    [header, claims].map((part) => Buffer.from(JSON.stringify(part)).toString('base64url')).join('.') + '.';

  it.each<[string, () => Promise<Partial<Request>>]>([
    ['a malformed token', () => Promise.resolve(bearer('not.a.jwt'))],
    [
      'a token of another secret',
      async () => bearer(await jwt.signAsync({ sub: USER.id }, { secret: 'x'.repeat(40) })),
    ],
    [
      'an HS384 token',
      async () =>
        bearer(
          await jwt.signAsync({ sub: USER.id }, { algorithm: 'HS384', header: { ...header, alg: 'HS384' } }),
        ),
    ],
    [
      'a token without typ (not marked as an access token)',
      async () => bearer(await jwt.signAsync({ sub: USER.id }, { header: { alg: 'HS256' } })),
    ],
    [
      'a token of another kind (typ rt+jwt)',
      async () => bearer(await jwt.signAsync({ sub: USER.id }, { header: { alg: 'HS256', typ: 'rt+jwt' } })),
    ],
    [
      'a token of the generic typ JWT',
      async () => bearer(await jwt.signAsync({ sub: USER.id }, { header: { alg: 'HS256', typ: 'JWT' } })),
    ],
    [
      'an unsigned alg=none token',
      () =>
        Promise.resolve(
          bearer(
            unsigned(
              { alg: 'none', typ: ACCESS_TOKEN_TYPE },
              { sub: USER.id, iss: config.jwt.issuer, aud: config.jwt.audience, exp: now() + 600 },
            ),
          ),
        ),
    ],
    ['another issuer', async () => bearer(await jwt.signAsync({ sub: USER.id }, { issuer: 'someone-else' }))],
    [
      'another audience',
      async () => bearer(await jwt.signAsync({ sub: USER.id }, { audience: 'other-api' })),
    ],
    ['a token without exp', async () => bearer(await plainJwt.signAsync({ sub: USER.id }))],
    ['a subject that is not a uuid', async () => bearer(await jwt.signAsync({ sub: 'acme' }))],
    [
      'a non-bearer scheme',
      async () => ({ headers: { authorization: `Token ${await jwt.signAsync({ sub: USER.id })}` } }),
    ],
  ])('refuses %s with the same 401 invalid_token', async (_case, makeRequest) => {
    const error = await refusal(await makeRequest());

    expect(error.getStatus()).toBe(401);
    expect(error.problem.type).toBe('/problems/unauthorized');
    expect(error.problemOptions.headers).toEqual({
      'WWW-Authenticate':
        'Bearer realm="process-lookup", error="invalid_token", error_description="The access token is malformed, ' +
        'wrongly signed or not an access token of this service"',
    });
  });

  it('takes no token from the query string: 401 as without one', async () => {
    const error = await refusal({
      headers: {},
      query: { access_token: await jwt.signAsync({ sub: USER.id }) },
    });

    expect(error.problemOptions.headers).toEqual({ 'WWW-Authenticate': 'Bearer realm="process-lookup"' });
  });

  it.each([
    ['a second ago', -1],
    ['this second (exp is the first second it is refused)', 0],
  ])('refuses a token that expired %s, with no leeway, saying it expired', async (_case, offset) => {
    const error = await refusal(bearer(await plainJwt.signAsync({ sub: USER.id, exp: now() + offset })));

    expect(error.problemOptions.headers).toEqual({
      'WWW-Authenticate':
        'Bearer realm="process-lookup", error="invalid_token", error_description="The access token expired"',
    });
  });

  it('refuses the token of a disabled or removed user, saying it was revoked', async () => {
    const error = await refusal(bearer(await jwt.signAsync({ sub: '00000000-0000-4000-8000-000000000000' })));

    expect(error.getStatus()).toBe(401);
    expect(error.problemOptions.headers?.['WWW-Authenticate']).toMatch(/error="invalid_token".*revoked/);
  });

  describe('a token verified before', () => {
    it('is let through again without passport, with its user resolved again', async () => {
      const token = await jwt.signAsync({ sub: USER.id }, { jwtid: 'again' });
      await sut.canActivate(contextFor(bearer(token), locked, ExampleController));
      const verify = jest.spyOn(JwtStrategy.prototype, 'validate');

      const request = bearer(token);
      expect(await sut.canActivate(contextFor(request, locked, ExampleController))).toBe(true);
      expect((request as { user?: unknown }).user).toEqual(USER);
      expect(verify).not.toHaveBeenCalled();
      verify.mockRestore();
    });

    it('is refused once its user is disabled', async () => {
      const token = await jwt.signAsync({ sub: USER.id }, { jwtid: 'disabled-later' });
      await sut.canActivate(contextFor(bearer(token), locked, ExampleController));
      disabled = true;

      const error = await refusal(bearer(token));

      expect(error.getStatus()).toBe(401);
      expect(error.problemOptions.headers?.['WWW-Authenticate']).toMatch(/revoked/);
    });

    it('is refused from its exp on, as jsonwebtoken would', async () => {
      const token = await plainJwt.signAsync({ sub: USER.id, exp: now() + 60 });
      await sut.canActivate(contextFor(bearer(token), locked, ExampleController));
      const later = jest.spyOn(Date, 'now').mockReturnValue((now() + 60) * 1000);

      const error = await refusal(bearer(token));

      expect(error.getStatus()).toBe(401);
      later.mockRestore();
    });

    it('does not vouch for a token that differs by a character', async () => {
      const token = await jwt.signAsync({ sub: USER.id }, { jwtid: 'tampered' });
      await sut.canActivate(contextFor(bearer(token), locked, ExampleController));
      // The second-to-last character: all of its bits are the signature's (the last one's are not).
      const replaced = token.at(-2) === 'A' ? 'B' : 'A';
      const tampered = `${token.slice(0, -2)}${replaced}${token.slice(-1)}`;

      expect(tampered).not.toBe(token);
      expect((await refusal(bearer(tampered))).getStatus()).toBe(401);
    });
  });
});
