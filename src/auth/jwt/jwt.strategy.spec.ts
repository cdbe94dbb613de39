import type { Request } from 'express';
import { loadAppConfig } from '../../config/app.config.js';
import type { AuthenticatedUser } from '../../domain/authenticated-user.js';
import { ProblemException } from '../../common/problems/problem.exception.js';
import { USER_GRANT, type GrantedRequest } from '../access/access-grant.js';
import type { AccessResolver } from '../access/access-resolver.js';
import { JwtStrategy, type VerifiedToken } from './jwt.strategy.js';
import type { AccessTokenClaims, TokenSubject } from './token-subject.js';
import { VerifiedTokens } from './verified-tokens.js';

const USER: AuthenticatedUser = {
  id: '6f1c1f8e-3c51-4a43-9c6a-1d2b0f7d9a10',
  username: 'operator',
  role: 'staff',
  customerIds: [],
};
const DISABLED_ID = '00000000-0000-4000-8000-000000000000';
const SIGN_IN_ID = '1b7e0c52-9d1f-4e8a-b3c6-5a2f8d0e7c41';
const CLIENT_ID = 'plc_8Zq3v1Xw0bT4nYc2LmQa9d';

describe(JwtStrategy.name, () => {
  const resolved: TokenSubject[] = [];
  const access = {
    resolve: (subject: TokenSubject) => {
      resolved.push(subject);
      const live = subject.kind === 'client' || subject.userId === USER.id;
      return Promise.resolve(live ? { user: USER, grant: USER_GRANT } : null);
    },
  };
  let verifiedTokens: VerifiedTokens;
  let sut: JwtStrategy;
  /** The request the token came in: only its Authorization header matters. */
  let request: GrantedRequest;
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
    request = { headers: { authorization: 'Bearer the.bearer.token' } } as Request;
    verifiedTokens = new VerifiedTokens();
    sut = new JwtStrategy(loadAppConfig({ NODE_ENV: 'test' }), access as AccessResolver, verifiedTokens);
  });

  it('resolves the subject of a token with exp to its live user and what the token may do', async () => {
    expect(await sut.validate(request, token({ sub: USER.id, sid: SIGN_IN_ID, exp }))).toEqual(USER);
    expect(resolved).toEqual([{ kind: 'user', userId: USER.id, signInId: SIGN_IN_ID }]);
    expect(request.accessGrant).toBe(USER_GRANT);
  });

  it('resolves a client’s token (sub and client_id its client id) to the client with its scopes', async () => {
    await sut.validate(
      request,
      token({ sub: CLIENT_ID, client_id: CLIENT_ID, scope: 'processes:read', exp }),
    );

    expect(resolved).toEqual([{ kind: 'client', clientId: CLIENT_ID, scopes: ['processes:read'] }]);
  });

  it('remembers a token that passes every check, with its subject, until its exp (no leeway)', async () => {
    await sut.validate(request, token({ sub: USER.id, exp }));

    const subject = { kind: 'user', userId: USER.id, signInId: null };
    expect(remembered()).toEqual(subject);
    expect(verifiedTokens.subjectOf('the.bearer.token', exp * 1000 - 1)).toEqual(subject);
    expect(verifiedTokens.subjectOf('the.bearer.token', exp * 1000)).toBeUndefined();
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
    ['whose sid is not a uuid', { sub: USER.id, sid: 'x', exp }],
    ['whose client_id is not its sub', { sub: USER.id, client_id: CLIENT_ID, scope: 'processes:read', exp }],
    ['of a client without scope', { sub: CLIENT_ID, client_id: CLIENT_ID, exp }],
    ['of a client with an unknown scope', { sub: CLIENT_ID, client_id: CLIENT_ID, scope: 'admin', exp }],
  ])('refuses a token %s without looking the user up', async (_case, claims) => {
    expect(await sut.validate(request, token(claims))).toBe(false);
    expect(resolved).toEqual([]);
    expect(remembered()).toBeUndefined();
  });

  it('refuses a token whose access is revoked (user disabled, sign-in ended) as revoked', async () => {
    const refusal = await sut
      .validate(request, token({ sub: DISABLED_ID, exp }))
      .catch((error: unknown) => error);

    expect(refusal).toBeInstanceOf(ProblemException);
    expect((refusal as ProblemException).problemOptions.detail).toMatch(/revoked/);
    expect(resolved).toEqual([{ kind: 'user', userId: DISABLED_ID, signInId: null }]);
  });
});
