import type { Request } from 'express';
import { loadAppConfig } from '../../config/app.config.js';
import type { AuthenticatedUser } from '../../domain/authenticated-user.js';
import type { UserAccessService } from '../users/user-access.service.js';
import { JwtStrategy, type AccessTokenClaims, type VerifiedToken } from './jwt.strategy.js';
import { VerifiedTokens } from './verified-tokens.js';

const USER: AuthenticatedUser = {
  id: '6f1c1f8e-3c51-4a43-9c6a-1d2b0f7d9a10',
  username: 'operator',
  role: 'staff',
  customerIds: [],
};
const DISABLED_ID = '00000000-0000-4000-8000-000000000000';

describe(JwtStrategy.name, () => {
  const resolved: string[] = [];
  const access = {
    resolve: (id: string) => {
      resolved.push(id);
      return Promise.resolve(id === USER.id ? USER : null);
    },
  };
  let verifiedTokens: VerifiedTokens;
  let sut: JwtStrategy;
  /** The request the token came in: only its Authorization header matters. */
  const request = { headers: { authorization: 'Bearer the.bearer.token' } } as Request;
  const remembered = () => verifiedTokens.subjectOf('the.bearer.token', Date.now());
  const exp = Math.floor(Date.now() / 1000) + 600;
  /** A verified token as jsonwebtoken hands it over, with an access token's header unless told. */
  const token = (
    payload: Partial<AccessTokenClaims>,
    header: VerifiedToken['header'] = { typ: 'at+jwt' },
  ) => ({
    header: { alg: 'HS256', ...header },
    payload,
  });

  beforeEach(() => {
    resolved.length = 0;
    verifiedTokens = new VerifiedTokens();
    sut = new JwtStrategy(loadAppConfig({ NODE_ENV: 'test' }), access as UserAccessService, verifiedTokens);
  });

  it('resolves the subject of a token with exp to its live user', async () => {
    expect(await sut.validate(request, token({ sub: USER.id, exp }))).toEqual(USER);
    expect(resolved).toEqual([USER.id]);
  });

  it('remembers a token that passes every check, with its subject, until it expires', async () => {
    await sut.validate(request, token({ sub: USER.id, exp }));

    expect(remembered()).toBe(USER.id);
    expect(verifiedTokens.subjectOf('the.bearer.token', (exp + 30) * 1000 - 1)).toBe(USER.id);
    expect(verifiedTokens.subjectOf('the.bearer.token', (exp + 30) * 1000)).toBeUndefined();
    expect(verifiedTokens.subjectOf('another.bearer.token', Date.now())).toBeUndefined();
  });

  it.each(['application/at+jwt', 'AT+JWT', 'Application/At+Jwt'])(
    'accepts the access-token type written as %s (RFC 9068, case-insensitive)',
    async (typ) => {
      expect(await sut.validate(request, token({ sub: USER.id, exp }, { typ }))).toEqual(USER);
    },
  );

  it.each<[string, VerifiedToken['header']]>([
    ['without typ', {}],
    ['of the generic type JWT', { typ: 'JWT' }],
    ['of another kind (a refresh token)', { typ: 'rt+jwt' }],
    ['whose typ only contains at+jwt', { typ: 'at+jwt+x' }],
    ['whose typ is not a string', { typ: ['at+jwt'] }],
  ])('refuses a token %s without looking the user up', async (_case, header) => {
    expect(await sut.validate(request, token({ sub: USER.id, exp }, header))).toBe(false);
    expect(resolved).toEqual([]);
    expect(remembered()).toBeUndefined();
  });

  it.each([
    ['without exp', { sub: USER.id }],
    ['with a non-numeric exp', { sub: USER.id, exp: String(exp) as unknown as number }],
    ['without sub', { exp }],
    ['whose sub is not a uuid', { sub: 'operator', exp }],
    ['whose sub is a uuid with extra text', { sub: `${USER.id}x`, exp }],
  ])('refuses a token %s without looking the user up', async (_case, claims) => {
    expect(await sut.validate(request, token(claims))).toBe(false);
    expect(resolved).toEqual([]);
    expect(remembered()).toBeUndefined();
  });

  it('refuses a token of a disabled or removed user', async () => {
    expect(await sut.validate(request, token({ sub: DISABLED_ID, exp }))).toBe(false);
    expect(resolved).toEqual([DISABLED_ID]);
  });
});
