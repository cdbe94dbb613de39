/**
 * What every route shares, against the deployment: health and metrics, the per-user rate-limit
 * headers (read, never exhausted: the suite borrows real users), CORS, request ids, problem+json
 * for bad input and unknown routes, and the retired tracking route.
 */
import type { Problem } from './support/api-types.js';
import { RemoteApi, ROOM_WAIT_MS } from './support/remote-api.js';
import { remoteConfig } from './support/remote-config.js';

/** An origin no deployment lists in CORS_ORIGINS. */
const FOREIGN_ORIGIN = 'https://not-allowed.example.com';

const api = await RemoteApi.connect();

describe('behaviour every route shares', () => {
  let token: string;

  beforeAll(async () => {
    token = await api.signInFor(20);
  }, ROOM_WAIT_MS);

  it('is live and ready, and says so in JSON', async () => {
    const live = await api.get<{ status: string }>('/health/live');
    const ready = await api.get<{ status: string }>('/health/ready');

    expect(live.status).toBe(200);
    expect(ready.status).toBe(200);
    expect(ready.body.status).toBe('ok');
  });

  it('serves Prometheus metrics', async () => {
    const answer = await api.get<string>('/metrics');

    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toMatch(/^text\/plain/);
    expect(answer.body).toMatch(/^# HELP /m);
  });

  it('tells on every limited answer, success or refusal, what is left of the user’s window', async () => {
    const ok = await api.get('/api/processes?pageSize=1', { token });
    const refused = await api.get('/api/processes?pageSize=0', { token });
    const feed = await api.get('/api/changes?limit=1', { token });

    for (const answer of [ok, refused, feed]) {
      expect(answer.headers['ratelimit-policy']).toMatch(/^"per-user";q=\d+;w=\d+$/);
      expect(answer.headers.ratelimit).toMatch(/^"per-user";r=\d+;t=\d+$/);
    }
    const remaining = (answer: typeof ok) => Number(/r=(\d+)/.exec(answer.headers.ratelimit!)![1]);
    expect(remaining(refused)).toBeLessThan(remaining(ok));
  });

  it('labels no answer to a request without a token with a rate limit', async () => {
    const anonymous = await api.get('/api/processes');

    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.ratelimit).toBeUndefined();
  });

  it('echoes a sane X-Request-Id, and makes one up otherwise', async () => {
    const kept = await api.get('/health/live', { headers: { 'X-Request-Id': 'qa-remote-suite.1' } });
    const replaced = await api.get('/health/live', { headers: { 'X-Request-Id': 'not sane!' } });

    expect(kept.headers['x-request-id']).toBe('qa-remote-suite.1');
    expect(replaced.headers['x-request-id']).toMatch(/^[A-Za-z0-9._-]{1,128}$/);
    expect(replaced.headers['x-request-id']).not.toBe('not sane!');
  });

  it('sets the security headers, and says nothing of what it runs on', async () => {
    const answer = await api.get('/health/live');

    expect(answer.headers['x-content-type-options']).toBe('nosniff');
    expect(answer.headers['content-security-policy']).toBeDefined();
    expect(answer.headers['x-powered-by']).toBeUndefined();
  });

  it('never allows an origin it was not told to, nor any origin with *', async () => {
    const answer = await api.get('/health/live', { headers: { Origin: FOREIGN_ORIGIN } });
    const preflight = await api.request('OPTIONS', '/api/processes', {
      headers: { Origin: FOREIGN_ORIGIN, 'Access-Control-Request-Method': 'GET' },
    });

    expect(answer.headers['access-control-allow-origin']).toBeUndefined();
    expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
  });

  (remoteConfig.corsOrigin === null ? it.skip : it)(
    'echoes its own origin exactly, and answers its preflight (E2E_CORS_ORIGIN)',
    async () => {
      const origin = remoteConfig.corsOrigin!;
      const answer = await api.get('/api/processes?pageSize=1', { token, headers: { Origin: origin } });
      const preflight = await api.request('OPTIONS', '/api/processes', {
        headers: {
          Origin: origin,
          'Access-Control-Request-Method': 'GET',
          'Access-Control-Request-Headers': 'authorization,if-none-match',
        },
      });

      expect(answer.headers['access-control-allow-origin']).toBe(origin);
      expect(answer.headers.vary).toMatch(/Origin/);
      expect(answer.headers['access-control-expose-headers']).toMatch(/ETag/);
      expect(preflight.headers['access-control-allow-origin']).toBe(origin);
      expect(preflight.headers['access-control-allow-methods']).toMatch(/GET/);
      expect(preflight.headers['access-control-allow-headers']).toMatch(/Authorization/i);
    },
  );

  it('answers an unknown route with a problem+json 404', async () => {
    const answer = await api.get<Problem>('/api/no-such-route', { token });

    expect(answer.status).toBe(404);
    expect(answer.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(answer.body).toMatchObject({ type: '/problems/not-found', status: 404 });
  });

  it('answers another method on a known path with 405 and Allow', async () => {
    const answer = await api.request<Problem>('DELETE', '/api/processes', { token });

    expect(answer.status).toBe(405);
    expect(answer.headers.allow).toMatch(/GET/);
    expect(answer.body).toMatchObject({ type: '/problems/method-not-allowed' });
  });

  it('answers malformed JSON with a problem+json 400', async () => {
    const answer = await api.post<Problem>('/api/webhooks', {
      token,
      rawBody: '{"url": ',
      headers: { 'Content-Type': 'application/json' },
    });

    expect(answer.status).toBe(400);
    expect(answer.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(answer.body).toMatchObject({
      type: '/problems/invalid-request',
      requestId: answer.headers['x-request-id'],
    });
  });

  (api.conformance.operationIds().includes('notifyOperationsChanges') ? it : it.skip)(
    'refuses a change notification that the operations system did not sign',
    async () => {
      const body = { type: 'processes.changed', timestamp: new Date().toISOString(), data: { numeros: [] } };

      const unsigned = await api.post<Problem>('/api/operations/notifications', { body });
      const forged = await api.post<Problem>('/api/operations/notifications', {
        body,
        headers: {
          'webhook-id': 'msg_remote-suite',
          'webhook-timestamp': String(Math.floor(Date.now() / 1000)),
          'webhook-signature': `v1,${Buffer.alloc(32).toString('base64')}`,
        },
      });

      expect([unsigned.status, forged.status]).toEqual([401, 401]);
    },
  );

  const RETIRED = {
    type: '/problems/endpoint-retired',
    title: 'Endpoint retired',
    status: 410,
    detail:
      'GET /api/tracking was retired in March 2026. Use GET /api/processes to list processes and GET /api/processes/{numero} for one process.',
    successors: { list: '/api/processes', detail: '/api/processes/{numero}' },
  };

  it.each([
    ['GET', '/api/tracking'],
    ['GET', '/api/tracking?numero=IMP-2026-000001&foo[]=1'],
    ['GET', '/api/tracking/IMP-2026-000001'],
    ['GET', '/api/tracking/a/b/c'],
    ['POST', '/api/tracking/search'],
    ['PUT', '/api/tracking/x'],
    ['PATCH', '/api/tracking'],
    ['DELETE', '/api/tracking'],
    ['OPTIONS', '/api/tracking'],
  ])('answers the retired route, %s %s, with 410 and where to go instead', async (method, path) => {
    const answer = await api.request<Problem>(method, path, { token });

    expect(answer.status).toBe(410);
    expect(answer.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(answer.headers.link).toBe('</api/processes>; rel="successor-version"');
    expect(answer.headers.deprecation).toBe('@1772323200');
    expect(answer.headers.sunset).toBe('Sun, 01 Mar 2026 00:00:00 GMT');
    expect(answer.body).toMatchObject(RETIRED);
  });

  it('answers the retired route the same without a token and with a token that is not one', async () => {
    const anonymous = await api.get<Problem>('/api/tracking');
    const garbage = await api.get<Problem>('/api/tracking', {
      headers: { Authorization: 'Bearer garbage' },
    });

    expect([anonymous.status, garbage.status]).toEqual([410, 410]);
    expect(anonymous.body).toMatchObject(RETIRED);
    expect(garbage.body).toMatchObject(RETIRED);
  });

  it('answers HEAD on the retired route with 410 and its headers, without a body', async () => {
    const answer = await api.request('HEAD', '/api/tracking', { token });

    expect(answer.status).toBe(410);
    expect(answer.headers.sunset).toBe('Sun, 01 Mar 2026 00:00:00 GMT');
    expect(answer.body).toBe('');
  });
});
