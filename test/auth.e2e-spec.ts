import { createHmac, randomUUID } from 'node:crypto';
import { APP_TEST_DATABASE_TARGET } from '../src/testing/test-database.js';
import { TestApp, TEST_JWT_SECRET } from './support/test-app.js';

const ISSUER = 'process-lookup';
const AUDIENCE = 'process-lookup-api';

function base64url(value: object | string): string {
  return Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url');
}

/**
 * Hand-made tokens, so each attack is exactly the one under test. The header says `typ: at+jwt`
 * (an access token) unless `typ` is given; `typ: null` leaves it out.
 */
function forgeToken(
  claims: Record<string, unknown>,
  options: { alg?: string; secret?: string; typ?: string | null } = {},
): string {
  const typ = options.typ === undefined ? 'at+jwt' : options.typ;
  const header = base64url({ alg: options.alg ?? 'HS256', ...(typ === null ? {} : { typ }) });
  const payload = base64url(claims);
  if (options.alg === 'none') return `${header}.${payload}.`;
  const signature = createHmac('sha256', options.secret ?? TEST_JWT_SECRET)
    .update(`${header}.${payload}`)
    .digest('base64url');
  return `${header}.${payload}.${signature}`;
}

describe.each([APP_TEST_DATABASE_TARGET])('Authentication (%s)', (target) => {
  let testApp: TestApp;
  let acmeUserId: string;
  const now = () => Math.floor(Date.now() / 1000);
  const validClaims = () => ({
    sub: acmeUserId,
    iss: ISSUER,
    aud: AUDIENCE,
    iat: now(),
    exp: now() + 600,
    jti: randomUUID(),
  });

  beforeAll(async () => {
    testApp = await TestApp.start({ target });
    await testApp.addCustomers({ id: 'acme', name: 'ACME Importadora Ltda' });
    acmeUserId = await testApp.addUser({ username: 'acme', password: 'acme-pass-1', customerIds: ['acme'] });
    await testApp.addUser({
      username: 'gone',
      password: 'gone-pass-1',
      customerIds: ['acme'],
      active: false,
    });
  });

  afterAll(() => testApp.close());

  /** A protected route: anything that is not public will do. */
  const protectedGet = (authorization?: string) => {
    const request = testApp.http.get('/api/processes');
    return authorization === undefined ? request : request.set('Authorization', authorization);
  };

  describe('POST /api/auth/login', () => {
    it('issues an HS256 JWT with the contract claims', async () => {
      const response = await testApp.http
        .post('/api/auth/login')
        .send({ username: 'acme', password: 'acme-pass-1' })
        .expect(200);

      expect(response.headers['cache-control']).toBe('no-store');
      expect(response.body).toEqual({
        accessToken: expect.any(String),
        tokenType: 'Bearer',
        expiresIn: 900,
        refreshToken: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
        refreshExpiresIn: 604800,
      });
      const [header, payload] = (response.body.accessToken as string).split('.');
      expect(JSON.parse(Buffer.from(header!, 'base64url').toString())).toEqual({
        alg: 'HS256',
        typ: 'at+jwt',
      });
      const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString());
      expect(claims).toEqual({
        sub: acmeUserId,
        sid: expect.stringMatching(/^[0-9a-f-]{36}$/),
        iss: ISSUER,
        aud: AUDIENCE,
        iat: expect.any(Number),
        exp: claims.iat + 900,
        jti: expect.stringMatching(/^[0-9a-f-]{36}$/),
      });
    });

    it.each([
      ['unknown user', { username: 'nobody', password: 'whatever' }],
      ['wrong password', { username: 'acme', password: 'wrong' }],
      ['disabled user', { username: 'gone', password: 'gone-pass-1' }],
    ])('answers one 401 for a %s', async (_case, body) => {
      const response = await testApp.http.post('/api/auth/login').send(body).expect(401);

      expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(response.headers['cache-control']).toBe('no-store');
      expect(response.body).toEqual({
        type: '/problems/invalid-credentials',
        title: 'Invalid credentials',
        status: 401,
        detail: 'The user name or password is incorrect',
        instance: '/api/auth/login',
        requestId: expect.any(String),
      });
    });
  });

  describe('the global JWT guard', () => {
    /** RFC 6750: the realm alone without a token, else `invalid_token` and why. */
    const CHALLENGES = {
      missing: 'Bearer realm="process-lookup"',
      invalid:
        'Bearer realm="process-lookup", error="invalid_token", error_description="The access token is malformed, ' +
        'wrongly signed or not an access token of this service"',
      expired:
        'Bearer realm="process-lookup", error="invalid_token", error_description="The access token expired"',
      revoked:
        'Bearer realm="process-lookup", error="invalid_token", error_description="The access token was revoked ' +
        '(sign-in ended, user disabled or client deleted)"',
    };
    const expectUnauthorized = async (
      request: ReturnType<typeof protectedGet>,
      reason: keyof typeof CHALLENGES = 'invalid',
    ) => {
      const response = await request.expect(401);
      expect(response.headers['www-authenticate']).toBe(CHALLENGES[reason]);
      expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(response.body).toMatchObject({ type: '/problems/unauthorized', status: 401 });
    };

    it('lets a valid token through', async () => {
      const token = await testApp.login('acme', 'acme-pass-1');
      const response = await protectedGet(`Bearer ${token}`);
      expect(response.status).not.toBe(401);
    });

    it('refuses a request without a token', () => expectUnauthorized(protectedGet(), 'missing'));

    it.each([
      ['an hour ago', 3600],
      ['a second ago (no leeway)', 1],
    ])('refuses a token that expired %s, saying so', (_case, ago) =>
      expectUnauthorized(
        protectedGet(`Bearer ${forgeToken({ ...validClaims(), iat: now() - 7200, exp: now() - ago })}`),
        'expired',
      ),
    );

    it.each([
      ['a malformed token', () => 'Bearer not.a.jwt'],
      ['a non-Bearer scheme', () => `Basic ${Buffer.from('acme:acme-pass-1').toString('base64')}`],
      [
        'a token without exp',
        () => {
          const { exp: _exp, ...claims } = validClaims();
          return `Bearer ${forgeToken(claims)}`;
        },
      ],
      [
        'a foreign signature',
        () => `Bearer ${forgeToken(validClaims(), { secret: 'another-secret-that-is-long-enough-000000' })}`,
      ],
      ['alg none', () => `Bearer ${forgeToken(validClaims(), { alg: 'none' })}`],
      ['another algorithm (HS512 header)', () => `Bearer ${forgeToken(validClaims(), { alg: 'HS512' })}`],
      ['a wrong issuer', () => `Bearer ${forgeToken({ ...validClaims(), iss: 'someone-else' })}`],
      ['a wrong audience', () => `Bearer ${forgeToken({ ...validClaims(), aud: 'another-api' })}`],
      ['a token without typ (no kind)', () => `Bearer ${forgeToken(validClaims(), { typ: null })}`],
      ['a token of the generic typ JWT', () => `Bearer ${forgeToken(validClaims(), { typ: 'JWT' })}`],
      [
        'a token of another kind (typ rt+jwt)',
        () => `Bearer ${forgeToken(validClaims(), { typ: 'rt+jwt' })}`,
      ],
    ])('refuses %s', (_case, authorization) => expectUnauthorized(protectedGet(authorization())));

    it('refuses an unknown subject as revoked', () =>
      expectUnauthorized(
        protectedGet(`Bearer ${forgeToken({ ...validClaims(), sub: randomUUID() })}`),
        'revoked',
      ));

    it('accepts a forged token that is right in every respect, so the refusals above are each for one thing', async () => {
      const response = await protectedGet(`Bearer ${forgeToken(validClaims())}`);
      expect(response.status).toBe(200);
    });

    it('accepts the access-token type written as application/at+jwt (RFC 9068)', async () => {
      const token = forgeToken(validClaims(), { typ: 'application/at+jwt' });
      const response = await protectedGet(`Bearer ${token}`);
      expect(response.status).toBe(200);
    });

    it('never takes the token from the query string or a cookie', async () => {
      const token = await testApp.login('acme', 'acme-pass-1');
      await expectUnauthorized(testApp.http.get(`/api/processes?access_token=${token}`), 'missing');
      await expectUnauthorized(
        testApp.http.get('/api/processes').set('Cookie', `access_token=${token}; token=${token}`),
        'missing',
      );
    });

    it('refuses the token of a user who was disabled', async () => {
      await testApp.addUser({ username: 'leaver', password: 'leaver-pass-1', customerIds: ['acme'] });
      const token = forgeToken({ ...validClaims(), sub: await userIdOf('leaver') });
      await testApp.app
        .get((await import('../src/auth/users/users.repository.js')).UsersRepository)
        .update('leaver', { active: false });
      await expectUnauthorized(protectedGet(`Bearer ${token}`), 'revoked');
    });
  });

  async function userIdOf(username: string): Promise<string> {
    const { UsersRepository } = await import('../src/auth/users/users.repository.js');
    const user = await testApp.app.get(UsersRepository).findByUsername(username);
    return user!.id;
  }
});
