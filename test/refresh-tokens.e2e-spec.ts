import { Clock } from '../src/common/clock.js';
import { DatabaseService } from '../src/database/database.service.js';
import { refreshTokens } from '../src/database/schema.js';
import { UsersRepository } from '../src/auth/users/users.repository.js';
import { FakeClock } from '../src/testing/fake-clock.js';
import { APP_TEST_DATABASE_TARGET } from '../src/testing/test-database.js';
import { TestApp } from './support/test-app.js';

const DAY_MS = 24 * 60 * 60 * 1000;

describe.each([APP_TEST_DATABASE_TARGET])('Refresh tokens (%s)', (target) => {
  let testApp: TestApp;
  const clock = new FakeClock();

  beforeAll(async () => {
    testApp = await TestApp.start({
      target,
      // The per-address limit is tested from an address of its own (taken from X-Forwarded-For).
      env: { TRUST_PROXY: '1' },
      override: (builder) => builder.overrideProvider(Clock).useValue(clock),
    });
    await testApp.addCustomers({ id: 'acme', name: 'ACME Importadora Ltda' });
    await testApp.addUser({ username: 'acme', password: 'acme-pass-1', customerIds: ['acme'] });
    await testApp.addUser({ username: 'leaver', password: 'leaver-pass-1', customerIds: ['acme'] });
  });

  afterAll(() => testApp.close());

  const login = async (username = 'acme', password = 'acme-pass-1') =>
    (await testApp.http.post('/api/auth/login').send({ username, password }).expect(200)).body as {
      accessToken: string;
      refreshToken: string;
      refreshExpiresIn: number;
    };
  const refresh = (refreshToken: string) => testApp.http.post('/api/auth/refresh').send({ refreshToken });
  const logout = (refreshToken: string) => testApp.http.post('/api/auth/logout').send({ refreshToken });
  const expectRefused = async (refreshToken: string) => {
    const response = await refresh(refreshToken).expect(401);
    expect(response.body).toMatchObject({ type: '/problems/invalid-credentials', status: 401 });
    expect(response.headers['www-authenticate']).toBeUndefined();
  };

  it('exchanges a refresh token for a new pair, not cached, whose access token works', async () => {
    const first = await login();
    const response = await refresh(first.refreshToken).expect(200);

    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.body).toEqual({
      accessToken: expect.any(String),
      tokenType: 'Bearer',
      expiresIn: 900,
      refreshToken: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      refreshExpiresIn: 604800,
    });
    expect(response.body.refreshToken).not.toBe(first.refreshToken);
    await testApp.http
      .get('/api/processes')
      .set('Authorization', `Bearer ${response.body.accessToken as string}`)
      .expect(200);
  });

  it('stores only a hash of each refresh token', async () => {
    const { refreshToken } = await login();
    const stored = await testApp.app.get(DatabaseService).db.select().from(refreshTokens);
    expect(stored.map((row) => row.tokenHash)).not.toContain(refreshToken);
    expect(JSON.stringify(stored)).not.toContain(refreshToken);
  });

  /** Past the grace for concurrent refreshes: a spent token presented now is a reuse. */
  const PAST_GRACE_MS = 10_001;
  const listWith = (accessToken: string) =>
    testApp.http.get('/api/processes').set('Authorization', `Bearer ${accessToken}`);

  it('refuses a spent token after 10 s and ends its whole sign-in, later tokens included', async () => {
    const first = await login();
    const second = (await refresh(first.refreshToken).expect(200)).body.refreshToken as string;
    clock.advance(PAST_GRACE_MS);

    await expectRefused(first.refreshToken);
    await expectRefused(second);
  });

  it('ends the access tokens of a sign-in revoked for reuse, saying they were revoked', async () => {
    const first = await login();
    const next = (await refresh(first.refreshToken).expect(200)).body as { accessToken: string };
    await listWith(next.accessToken).expect(200);
    clock.advance(PAST_GRACE_MS);
    await expectRefused(first.refreshToken);

    for (const accessToken of [first.accessToken, next.accessToken]) {
      const response = await listWith(accessToken).expect(401);
      expect(response.headers['www-authenticate']).toMatch(/error="invalid_token".*revoked/);
    }
  });

  it('gives two refreshes of one token within 10 s (two tabs) a pair each, of the same sign-in, both refreshing on', async () => {
    const { refreshToken } = await login();
    const [tab1, tab2] = await Promise.all([refresh(refreshToken), refresh(refreshToken)]);
    expect([tab1.status, tab2.status]).toEqual([200, 200]);
    clock.advance(9_000);
    const late = await refresh(refreshToken).expect(200);

    for (const pair of [tab1, tab2, late]) {
      const body = pair.body as { accessToken: string; refreshToken: string };
      await listWith(body.accessToken).expect(200);
      await refresh(body.refreshToken).expect(200);
    }
  });

  it('leaves the other sign-ins of the user alone when one is ended', async () => {
    const stolen = await login();
    const other = await login();
    await refresh(stolen.refreshToken).expect(200);
    clock.advance(PAST_GRACE_MS);
    await expectRefused(stolen.refreshToken);

    await refresh(other.refreshToken).expect(200);
    await listWith(other.accessToken).expect(200);
  });

  it('ends a sign-in at its absolute lifetime, however often it was refreshed', async () => {
    let { refreshToken, refreshExpiresIn } = await login();
    for (let day = 1; day <= 6; day += 1) {
      clock.advance(DAY_MS);
      const body = (await refresh(refreshToken).expect(200)).body as {
        refreshToken: string;
        refreshExpiresIn: number;
      };
      expect(body.refreshExpiresIn).toBe(refreshExpiresIn - DAY_MS / 1000);
      ({ refreshToken, refreshExpiresIn } = body);
    }
    clock.advance(DAY_MS);

    await expectRefused(refreshToken);
  });

  it('logs out: 204, and the sign-in refreshes no more, nor do its access tokens work', async () => {
    const { refreshToken, accessToken } = await login();
    await listWith(accessToken).expect(200);
    const response = await logout(refreshToken).expect(204);

    expect(response.headers['cache-control']).toBe('no-store');
    await expectRefused(refreshToken);
    await listWith(accessToken).expect(401);
  });

  it('refuses an unknown token, for refresh and logout alike', async () => {
    await expectRefused('q3Z8v0yXb7cW1nHk2mJp4sLr6tUe9aDf0gBi5oCx7Qw');
    const response = await logout('q3Z8v0yXb7cW1nHk2mJp4sLr6tUe9aDf0gBi5oCx7Qw').expect(401);
    expect(response.body).toMatchObject({ type: '/problems/invalid-credentials' });
  });

  it('refuses the refresh of a disabled user', async () => {
    const { refreshToken } = await login('leaver', 'leaver-pass-1');
    await testApp.app.get(UsersRepository).update('leaver', { active: false });

    await expectRefused(refreshToken);
  });

  it('counts refused refreshes toward the failed-login limit of the client address', async () => {
    const address = '198.51.100.7';
    for (let attempt = 0; attempt < 50; attempt += 1) {
      await refresh(`unknown-${attempt}`).set('X-Forwarded-For', address).expect(401);
    }
    const refused = await refresh('unknown').set('X-Forwarded-For', address).expect(429);
    expect(refused.body).toMatchObject({ type: '/problems/rate-limited' });
    expect(refused.headers['retry-after']).toMatch(/^\d+$/);
  });

  it.each([
    ['no token', {}, 'is required'],
    ['a number', { refreshToken: 42 }, 'must be a string'],
    ['an empty token', { refreshToken: '' }, 'must be longer than or equal to 1 characters'],
  ])('answers 400 to %s', async (_case, body, message) => {
    const response = await testApp.http.post('/api/auth/refresh').send(body).expect(400);
    expect(response.body.errors).toEqual([{ in: 'body', name: 'refreshToken', message }]);
  });
});
