/**
 * Signing in, refreshing and signing out, against the deployment. The suite costs the client
 * address a handful of the fifty failed logins it may make a quarter-hour (a wrong password, an
 * unknown user, a reused and a revoked refresh token), so it can run again and again.
 */
import { randomUUID } from 'node:crypto';
import type { Problem } from './support/api-types.js';
import { RemoteApi, ROOM_WAIT_MS, type SignIn } from './support/remote-api.js';
import { remoteConfig } from './support/remote-config.js';

/** Longer than a used refresh token may be presented again without ending its sign-in (two tabs). */
const RETRY_GRACE_MS = 10_500;

describe('signing in, refreshing and signing out', () => {
  let api: RemoteApi;

  beforeAll(async () => {
    api = await RemoteApi.connect();
    await api.signInFor(20);
  }, ROOM_WAIT_MS);

  const refresh = (refreshToken: string) => api.post<SignIn>('/api/auth/refresh', { body: { refreshToken } });
  const problemOf = (body: unknown) => {
    const { requestId: _requestId, instance: _instance, ...rest } = body as Problem;
    return rest;
  };

  it('signs in: a bearer access token that opens the API, a refresh token, nothing cached', async () => {
    const answer = await api.post<SignIn>('/api/auth/login', { body: remoteConfig.user });

    expect(answer.status).toBe(200);
    expect(answer.headers['cache-control']).toBe('no-store');
    expect(answer.body).toEqual({
      accessToken: expect.any(String),
      tokenType: 'Bearer',
      expiresIn: expect.any(Number),
      refreshToken: expect.any(String),
      refreshExpiresIn: expect.any(Number),
    });
    expect((await api.get('/api/processes?pageSize=1', { token: answer.body.accessToken })).status).toBe(200);
  });

  it('refuses a wrong password and an unknown user with one and the same problem', async () => {
    const wrongPassword = await api.post('/api/auth/login', {
      body: { ...remoteConfig.user, password: `${remoteConfig.user.password}-wrong` },
    });
    const unknownUser = await api.post('/api/auth/login', {
      body: { username: `qa-nobody-${randomUUID()}`, password: remoteConfig.user.password },
    });

    expect(wrongPassword.status).toBe(401);
    expect(wrongPassword.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(wrongPassword.body).toMatchObject({ type: '/problems/invalid-credentials', status: 401 });
    expect(problemOf(unknownUser.body)).toEqual(problemOf(wrongPassword.body));
  });

  describe('a login body the API does not take', () => {
    const { username } = remoteConfig.user;
    const login = (rawBody: string, contentType = 'application/json') =>
      api.post<Problem>('/api/auth/login', { rawBody, headers: { 'Content-Type': contentType } });
    const fault = (name: string, message: string) => ({ in: 'body', name, message });

    it.each<[string, unknown, Array<ReturnType<typeof fault>>]>([
      ['no user name', { password: 'x' }, [fault('username', 'is required')]],
      ['no password', { username }, [fault('password', 'is required')]],
      ['neither', {}, [fault('username', 'is required'), fault('password', 'is required')]],
      [
        'a number for the user name',
        { username: 42, password: 'x' },
        [fault('username', 'must be a string')],
      ],
      ['a list for the password', { username, password: ['x'] }, [fault('password', 'must be a string')]],
      [
        'an empty user name',
        { username: '', password: 'x' },
        [fault('username', 'must be longer than or equal to 1 characters')],
      ],
      [
        'a user name too long',
        { username: 'a'.repeat(129), password: 'x' },
        [fault('username', 'must be shorter than or equal to 128 characters')],
      ],
      [
        'a password too long',
        { username, password: 'x'.repeat(1025) },
        [fault('password', 'must be shorter than or equal to 1024 characters')],
      ],
      ...['\u0000', '\n', '\u007f'].map((control): [string, unknown, Array<ReturnType<typeof fault>>] => [
        `${JSON.stringify(control)} in the user name`,
        { username: `ac${control}me`, password: 'x' },
        [fault('username', 'must not contain control characters')],
      ]),
      [
        'a member it does not know',
        { username, password: 'x', role: 'staff' },
        [fault('role', 'unknown field')],
      ],
      ['a list', [1, 2], [fault('body', 'must be a JSON object')]],
      [
        'objects 20 deep',
        { username, password: JSON.parse(`${'{"a":'.repeat(20)}1${'}'.repeat(20)}`) as unknown },
        [fault('body', 'must not be nested more than 8 levels deep')],
      ],
    ])('names each fault of a body with %s: 400', async (_case, body, faults) => {
      const answer = await login(JSON.stringify(body));

      expect(answer.status).toBe(400);
      expect(answer.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(answer.body).toMatchObject({ type: '/problems/invalid-request', errors: faults });
    });

    it.each([
      ['a JSON string', '"acme"'],
      ['null', 'null'],
      ['JSON cut short', '{"username": "acme",'],
    ])('refuses %s as not a JSON object: 400', async (_case, raw) => {
      const answer = await login(raw);

      expect(answer.status).toBe(400);
      expect(answer.body).toMatchObject({
        type: '/problems/invalid-request',
        detail: 'The request body is not valid JSON',
      });
    });

    it('refuses an array 3,000 deep with 400, never a stack overflow', async () => {
      const answer = await login(`{"username":${'['.repeat(3000)}${']'.repeat(3000)},"password":"x"}`);

      expect(answer.status).toBe(400);
      expect(answer.body.errors).toEqual([fault('body', 'must not be nested more than 8 levels deep')]);
    });

    it.each([
      ['text/plain', `username=${username}`],
      ['application/x-www-form-urlencoded', `username=${username}&password=x`],
    ])('refuses a %s body with 415, nothing cached', async (contentType, raw) => {
      const answer = await login(raw, contentType);

      expect(answer.status).toBe(415);
      expect(answer.body).toMatchObject({ type: '/problems/unsupported-media-type' });
      expect(answer.headers['cache-control']).toBe('no-store');
    });

    it('refuses a body over 16 KiB with 413', async () => {
      const answer = await login(JSON.stringify({ username, password: 'x'.repeat(17 * 1024) }));

      expect(answer.status).toBe(413);
      expect(answer.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(answer.body).toMatchObject({ type: '/problems/payload-too-large' });
    });
  });

  it('refuses a missing token and a malformed one, each with a Bearer challenge', async () => {
    const missing = await api.get<Problem>('/api/processes');
    const malformed = await api.get<Problem>('/api/processes', { token: 'not-a-jwt' });

    expect(missing.status).toBe(401);
    expect(missing.headers['www-authenticate']).toMatch(/^Bearer\b/);
    expect(missing.body).toMatchObject({ type: '/problems/unauthorized' });
    expect(malformed.status).toBe(401);
    expect(malformed.headers['www-authenticate']).toMatch(/^Bearer\b/);
    expect(malformed.body).toMatchObject({ type: '/problems/unauthorized' });
  });

  it('rotates the refresh token at every refresh: a new pair whose access token works', async () => {
    const first = await api.signIn();

    const refreshed = await refresh(first.refreshToken);

    expect(refreshed.status).toBe(200);
    expect(refreshed.headers['cache-control']).toBe('no-store');
    expect(refreshed.body.refreshToken).not.toBe(first.refreshToken);
    expect(refreshed.body.refreshExpiresIn).toBeLessThanOrEqual(first.refreshExpiresIn);
    expect((await api.get('/api/processes?pageSize=1', { token: refreshed.body.accessToken })).status).toBe(
      200,
    );
  });

  it('ends the whole sign-in when a used refresh token comes back: only a thief replays one', async () => {
    const first = await api.signIn();
    const second = await refresh(first.refreshToken);
    expect(second.status).toBe(200);

    // Past the seconds in which a second tab's retry of the same token may be forgiven.
    await new Promise((resolve) => setTimeout(resolve, RETRY_GRACE_MS));
    const replayed = await refresh(first.refreshToken);
    const later = await refresh(second.body.refreshToken);

    expect(replayed.status).toBe(401);
    expect(replayed.body).toMatchObject({ type: '/problems/invalid-credentials' });
    expect(later.status).toBe(401);
  }, 30_000);

  it('signs out: 204, nothing cached, and the sign-in refreshes no more', async () => {
    const { refreshToken } = await api.signIn();

    const loggedOut = await api.post('/api/auth/logout', { body: { refreshToken } });

    expect(loggedOut.status).toBe(204);
    expect(loggedOut.headers['cache-control']).toBe('no-store');
    expect((await refresh(refreshToken)).status).toBe(401);
  });

  it('refuses refresh and logout bodies without a token string, naming the field', async () => {
    const noToken = await api.post<Problem>('/api/auth/refresh', { body: {} });
    const aNumber = await api.post<Problem>('/api/auth/logout', { body: { refreshToken: 42 } });

    expect(noToken.status).toBe(400);
    expect(noToken.body.errors).toEqual([{ in: 'body', name: 'refreshToken', message: 'is required' }]);
    expect(aNumber.status).toBe(400);
    expect(aNumber.body.errors).toEqual([{ in: 'body', name: 'refreshToken', message: 'must be a string' }]);
  });

  (remoteConfig.failedLoginLimit ? it : it.skip)(
    'locks a user name out of this address after 10 failed logins (E2E_FAILED_LOGIN_LIMIT=on)',
    async () => {
      // A throwaway name: only it is locked, and it costs 10 of the address's 50 failures a quarter-hour.
      const body = { username: `qa-throwaway-${randomUUID()}`, password: 'not-the-password' };
      for (let attempt = 1; attempt <= 10; attempt += 1) {
        expect((await api.post('/api/auth/login', { body })).status).toBe(401);
      }

      const locked = await api.post<Problem>('/api/auth/login', { body });

      expect(locked.status).toBe(429);
      expect(locked.body).toMatchObject({ type: '/problems/rate-limited' });
      expect(locked.headers['retry-after']).toMatch(/^\d+$/);
    },
  );
});
