import { jest } from '@jest/globals';
import { Clock } from '../src/common/clock.js';
import { PasswordHasher } from '../src/auth/password-hasher.service.js';
import { OperationsGateway } from '../src/operations/operations.gateway.js';
import { anOperationsDetail, anOperationsProcess } from '../src/testing/operations-process.factory.js';
import { FakeClock } from '../src/testing/fake-clock.js';
import { FakeOperationsGateway } from '../src/testing/fake-operations.gateway.js';
import { closedPort } from '../src/testing/closed-port.js';
import { syncNow } from './support/sync-now.js';
import { TestApp } from './support/test-app.js';

const FIFTEEN_MINUTES_MS = 15 * 60 * 1000;
const PER_USER_PER_MINUTE = 5;

type LoginBody = Record<string, unknown>;

const expectRateLimited = (response: { status: number; headers: Record<string, string>; body: unknown }) => {
  expect(response.status).toBe(429);
  expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
  expect(response.headers['retry-after']).toMatch(/^[1-9]\d*$/);
  expect(response.body).toMatchObject({
    type: '/problems/rate-limited',
    title: 'Too many requests',
    status: 429,
  });
};

describe('Rate limits (in-memory counters)', () => {
  const clock = new FakeClock();
  let testApp: TestApp;
  let acmeToken: string;
  let operatorToken: string;
  /** Each test speaks from addresses of its own (TRUST_PROXY=1 takes them from X-Forwarded-For). */
  let addressBlock = 0;
  let address: string;

  beforeAll(async () => {
    testApp = await TestApp.start({
      env: { TRUST_PROXY: '1', RATE_LIMIT_PER_USER_PER_MINUTE: String(PER_USER_PER_MINUTE) },
      override: (builder) => builder.overrideProvider(Clock).useValue(clock),
    });
    await testApp.addCustomers({ id: 'acme', name: 'ACME Importadora Ltda' });
    await testApp.addUser({ username: 'acme', password: 'acme-pass-1', customerIds: ['acme'] });
    await testApp.addUser({ username: 'operator', password: 'operator-pass-1', role: 'staff' });
  });

  afterAll(() => testApp.close());

  beforeEach(() => {
    // Every window of the previous test has passed.
    clock.advance(FIFTEEN_MINUTES_MS + 1000);
    addressBlock += 1;
    address = `198.51.${addressBlock}.1`;
  });

  const login = (body: LoginBody, from = address) =>
    testApp.http.post('/api/auth/login').set('X-Forwarded-For', from).send(body);

  async function failTimes(
    times: number,
    body: (attempt: number) => LoginBody,
    from?: (attempt: number) => string,
  ) {
    for (let attempt = 0; attempt < times; attempt += 1) {
      const response = await login(body(attempt), from?.(attempt));
      expect(response.status).toBe(401);
    }
  }

  describe('failed logins', () => {
    it('refuses a user name from an address after 10 failures there, the right password included', async () => {
      await failTimes(10, () => ({ username: 'acme', password: 'wrong' }));

      const response = await login({ username: 'acme', password: 'acme-pass-1' });
      expectRateLimited(response);
      expect(response.headers['retry-after']).toBe('900');
      expect(response.headers['cache-control']).toBe('no-store');
      expect(response.body).toEqual({
        type: '/problems/rate-limited',
        title: 'Too many requests',
        status: 429,
        detail: 'Too many failed login attempts; try again later',
        instance: '/api/auth/login',
        requestId: expect.any(String),
      });
    });

    it('lets the 10th failure through and blocks the 11th attempt', async () => {
      await failTimes(9, () => ({ username: 'acme', password: 'wrong' }));
      expect((await login({ username: 'acme', password: 'wrong' })).status).toBe(401);
      expectRateLimited(await login({ username: 'acme', password: 'wrong' }));
    });

    it('counts a user name whatever its case and surrounding whitespace', async () => {
      const spellings = ['acme', 'ACME', ' Acme', 'acme ', '  aCmE  '];
      await failTimes(10, (attempt) => ({
        username: spellings[attempt % spellings.length],
        password: 'wrong',
      }));
      expectRateLimited(await login({ username: 'acme', password: 'acme-pass-1' }));
    });

    it('does not lock that user name from another address', async () => {
      await failTimes(10, () => ({ username: 'acme', password: 'wrong' }));
      expectRateLimited(await login({ username: 'acme', password: 'acme-pass-1' }));
      expect((await login({ username: 'acme', password: 'acme-pass-1' }, '203.0.113.99')).status).toBe(200);
    });

    it('refuses a user name from every address after 100 failures from all of them', async () => {
      await failTimes(
        100,
        () => ({ username: 'acme', password: 'wrong' }),
        (attempt) => `203.0.${100 + Math.floor(attempt / 9)}.${(attempt % 9) + 1}`,
      );
      const response = await login({ username: 'acme', password: 'acme-pass-1' }, '192.0.2.77');
      expectRateLimited(response);
      expect(response.body.detail).toBe('Too many failed login attempts; try again later');
      // Other names from those addresses are not affected.
      expect((await login({ username: 'operator', password: 'operator-pass-1' }, '203.0.100.1')).status).toBe(
        200,
      );
    });

    it('counts unknown user names exactly like known ones: the 429 tells nothing', async () => {
      await failTimes(
        10,
        () => ({ username: 'acme', password: 'wrong' }),
        () => '192.0.2.1',
      );
      await failTimes(
        10,
        () => ({ username: 'nobody-here', password: 'wrong' }),
        () => '192.0.2.2',
      );

      const known = await login({ username: 'acme', password: 'wrong' }, '192.0.2.1');
      const unknown = await login({ username: 'nobody-here', password: 'wrong' }, '192.0.2.2');
      expectRateLimited(known);
      expectRateLimited(unknown);
      expect(unknown.headers['retry-after']).toBe(known.headers['retry-after']);
      expect({ ...unknown.body, requestId: null }).toEqual({ ...known.body, requestId: null });
    });

    it('answers again once the window has passed, counted from the first failure', async () => {
      await failTimes(5, () => ({ username: 'acme', password: 'wrong' }));
      clock.advance(5 * 60 * 1000);
      await failTimes(5, () => ({ username: 'acme', password: 'wrong' }));

      clock.advance(10 * 60 * 1000 - 1000);
      const blocked = await login({ username: 'acme', password: 'acme-pass-1' });
      expectRateLimited(blocked);
      expect(blocked.headers['retry-after']).toBe('1');

      clock.advance(1000);
      expect((await login({ username: 'acme', password: 'acme-pass-1' })).status).toBe(200);
    });

    it('does not count successes, and a success forgets the failures of that user name', async () => {
      await failTimes(9, () => ({ username: 'acme', password: 'wrong' }));
      for (let success = 0; success < 3; success += 1) {
        expect((await login({ username: 'acme', password: 'acme-pass-1' })).status).toBe(200);
      }
      await failTimes(10, () => ({ username: 'acme', password: 'wrong' }));
      expectRateLimited(await login({ username: 'acme', password: 'wrong' }));
    });

    it('checks the body first: a malformed one is a 400, even when blocked, and does not count', async () => {
      for (let attempt = 0; attempt < 12; attempt += 1) {
        expect((await login({ username: 'acme', password: '' })).status).toBe(400);
      }
      expect((await login({ username: 'acme', password: 'wrong' })).status).toBe(401);

      await failTimes(9, () => ({ username: 'acme', password: 'wrong' }));
      expectRateLimited(await login({ username: 'acme', password: 'wrong' }));
      expect((await login({ username: 'acme' })).status).toBe(400);
    });

    it('verifies no password while blocked', async () => {
      await failTimes(10, () => ({ username: 'acme', password: 'wrong' }));
      const verify = jest.spyOn(testApp.app.get(PasswordHasher), 'verify');
      try {
        for (let attempt = 0; attempt < 5; attempt += 1) {
          expectRateLimited(await login({ username: 'acme', password: 'acme-pass-1' }));
        }
        expect(verify).not.toHaveBeenCalled();
      } finally {
        verify.mockRestore();
      }
    });

    it('refuses any user name from an address with 50 failures, and no other address', async () => {
      await failTimes(50, (attempt) => ({ username: `guess-${attempt}`, password: 'wrong' }));

      const response = await login({ username: 'acme', password: 'acme-pass-1' });
      expectRateLimited(response);
      expect(response.body.detail).toBe('Too many failed login attempts; try again later');
      expect((await login({ username: 'acme', password: 'acme-pass-1' }, '198.51.100.250')).status).toBe(200);
    });
  });

  describe(`per user on authenticated routes (${PER_USER_PER_MINUTE} a minute here)`, () => {
    beforeAll(async () => {
      acmeToken = await testApp.login('acme', 'acme-pass-1');
      operatorToken = await testApp.login('operator', 'operator-pass-1');
    });

    const get = (path: string, token: string) =>
      testApp.http.get(path).set('Authorization', `Bearer ${token}`);

    it('refuses requests over the limit until the minute has passed, one counter across routes', async () => {
      for (let request = 0; request < PER_USER_PER_MINUTE - 1; request += 1) {
        expect((await get('/api/processes', acmeToken)).status).toBe(200);
      }
      expect((await get('/api/processes/IMP-2026-404404', acmeToken)).status).toBe(404);

      clock.advance(20_000);
      const refused = await get('/api/processes', acmeToken);
      expectRateLimited(refused);
      expect(refused.headers['retry-after']).toBe('40');
      expect(refused.body.detail).toBe(`More than ${PER_USER_PER_MINUTE} requests a minute; slow down`);
      expectRateLimited(await get('/api/processes/IMP-2026-404404', acmeToken));

      // Another user has a counter of their own.
      expect((await get('/api/processes', operatorToken)).status).toBe(200);

      clock.advance(40_000);
      expect((await get('/api/processes', acmeToken)).status).toBe(200);
    });

    it('says on every answer, 200, 304, 400, 404 and 429, what is left of the window', async () => {
      const policy = `"per-user";q=${PER_USER_PER_MINUTE};w=60`;
      const expectHeaders = (
        response: { headers: Record<string, string> },
        remaining: number,
        reset: number,
      ) => {
        expect(response.headers['ratelimit-policy']).toBe(policy);
        expect(response.headers.ratelimit).toBe(`"per-user";r=${remaining};t=${reset}`);
      };

      const list = await get('/api/processes', acmeToken).expect(200);
      expectHeaders(list, PER_USER_PER_MINUTE - 1, 60);
      clock.advance(10_000);
      const notModified = await get('/api/processes', acmeToken)
        .set('If-None-Match', list.headers.etag!)
        .expect(304);
      expectHeaders(notModified, PER_USER_PER_MINUTE - 2, 50);
      expectHeaders(
        await get('/api/processes?pageSize=500', acmeToken).expect(400),
        PER_USER_PER_MINUTE - 3,
        50,
      );
      expectHeaders(
        await get('/api/processes/IMP-2026-404404', acmeToken).expect(404),
        PER_USER_PER_MINUTE - 4,
        50,
      );
      expectHeaders(await get('/api/processes', acmeToken).expect(200), 0, 50);
      clock.advance(5_000);
      const refused = await get('/api/processes', acmeToken);
      expectRateLimited(refused);
      expectHeaders(refused, 0, 45);
      expect(refused.headers['retry-after']).toBe('45');
    });

    it('does not count requests without a valid token against anyone, nor label them', async () => {
      for (let request = 0; request < PER_USER_PER_MINUTE + 2; request += 1) {
        const response = await testApp.http.get('/api/processes');
        expect(response.status).toBe(401);
        expect(response.headers.ratelimit).toBeUndefined();
      }
      expect((await get('/api/processes', acmeToken)).status).toBe(200);
    });
  });

  it('counts every 429 in rate_limit_rejections_total by limiter', async () => {
    const metrics = await testApp.http.get('/metrics').expect(200);
    for (const limiter of ['login-username-address', 'login-address', 'login-username', 'per-user']) {
      expect(metrics.text).toMatch(
        new RegExp(`^rate_limit_rejections_total\\{limiter="${limiter}"\\} [1-9]`, 'm'),
      );
    }
  });
});

describe('Rate limits with REDIS_URL set and Redis down, no TRUST_PROXY', () => {
  const gateway = new FakeOperationsGateway();
  const process = anOperationsProcess({ numero: 'IMP-2026-000901' });
  let testApp: TestApp;

  beforeAll(async () => {
    gateway.put(process, anOperationsDetail(process));
    testApp = await TestApp.start({
      env: { REDIS_URL: `redis://127.0.0.1:${await closedPort()}` },
      override: (builder) => builder.overrideProvider(OperationsGateway).useValue(gateway),
    });
    await syncNow(testApp);
    await testApp.addUser({ username: 'acme', password: 'acme-pass-1', customerIds: ['acme'] });
  });

  afterAll(() => testApp.close());

  it('keeps answering: logins and lists work, details are fetched (cache misses)', async () => {
    const token = await testApp.login('acme', 'acme-pass-1');
    const list = await testApp.http.get('/api/processes').set('Authorization', `Bearer ${token}`).expect(200);
    expect(list.body.meta.totalItems).toBe(1);

    for (let request = 0; request < 2; request += 1) {
      const detail = await testApp.http
        .get(`/api/processes/${process.numero}`)
        .set('Authorization', `Bearer ${token}`)
        .expect(200);
      expect(detail.body.enrichment.status).toBe('FRESH');
    }
    expect(gateway.detailCalls).toEqual([process.numero, process.numero]);
  });

  it('still limits failed logins (per instance), and ignores X-Forwarded-For', async () => {
    for (let attempt = 0; attempt < 50; attempt += 1) {
      const response = await testApp.http
        .post('/api/auth/login')
        .set('X-Forwarded-For', `203.0.113.${attempt + 1}`)
        .send({ username: `guess-${attempt}`, password: 'wrong' });
      expect(response.status).toBe(401);
    }
    expectRateLimited(
      await testApp.http
        .post('/api/auth/login')
        .set('X-Forwarded-For', '203.0.113.200')
        .send({ username: 'acme', password: 'acme-pass-1' }),
    );
  });
});
