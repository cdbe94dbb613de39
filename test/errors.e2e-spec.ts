import { TestApp } from './support/test-app.js';

describe('Errors and cross-cutting HTTP behaviour', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await TestApp.start();
  });

  afterAll(() => testApp.close());

  const expectProblem = (
    response: { headers: Record<string, string>; body: Record<string, unknown> },
    type: string,
    status: number,
  ) => {
    expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(response.body).toMatchObject({
      type,
      status,
      title: expect.any(String),
      instance: expect.any(String),
      requestId: expect.any(String),
    });
    expect(response.body.requestId).toBe(response.headers['x-request-id']);
  };

  it.each(['/nope', '/api', '/api/processes/a/b', '/api/auth'])(
    'answers 404 problem+json for the unknown route %s',
    async (path) => {
      const response = await testApp.http.get(path).expect(404);
      expectProblem(response, '/problems/not-found', 404);
    },
  );

  it.each([
    ['DELETE', '/api/auth/login', 'POST'],
    ['GET', '/api/auth/login', 'POST'],
    ['POST', '/api/processes', 'GET, HEAD'],
    ['PUT', '/api/processes/IMP-2026-000001', 'GET, HEAD'],
  ])('answers %s %s with 405 and Allow: %s', async (method, path, allow) => {
    const response = await testApp.http[method.toLowerCase() as 'get'](path).expect(405);
    expectProblem(response, '/problems/method-not-allowed', 405);
    expect(response.headers.allow).toBe(allow);
  });

  describe('X-Request-Id', () => {
    it('keeps a sane client id', async () => {
      const response = await testApp.http.get('/nope').set('X-Request-Id', 'portal-42.abc_DEF').expect(404);
      expect(response.headers['x-request-id']).toBe('portal-42.abc_DEF');
      expect(response.body.requestId).toBe('portal-42.abc_DEF');
    });

    it.each([
      ['too long', 'a'.repeat(129)],
      ['bad characters', 'abc<script>'],
      ['spaces', 'a b'],
    ])('replaces a client id with %s', async (_case, id) => {
      const response = await testApp.http.get('/nope').set('X-Request-Id', id).expect(404);
      expect(response.headers['x-request-id']).not.toBe(id);
      expect(response.headers['x-request-id']).toMatch(/^[A-Za-z0-9._-]{1,128}$/);
    });

    it('is on successful answers too', async () => {
      const response = await testApp.http.get('/docs/openapi.json').expect(200);
      expect(response.headers['x-request-id']).toMatch(/^[A-Za-z0-9._-]{1,128}$/);
    });
  });

  it('sets helmet’s security headers and no X-Powered-By, and no HTTPS-only ones over plain HTTP', async () => {
    const response = await testApp.http.get('/nope');
    expect(response.headers['x-powered-by']).toBeUndefined();
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['x-frame-options']).toBeDefined();
    expect(response.headers['strict-transport-security']).toBeUndefined();
    expect(response.headers['cross-origin-opener-policy']).toBeUndefined();
    expect(response.headers['content-security-policy']).toContain("script-src 'self'");
    expect(response.headers['content-security-policy']).not.toContain('upgrade-insecure-requests');
  });

  it('sends HSTS, COOP and upgrade-insecure-requests when served over TLS', async () => {
    const overTls = await TestApp.start({ env: { SERVED_OVER_TLS: 'true' } });
    try {
      const response = await overTls.http.get('/docs/openapi.json');
      expect(response.headers['strict-transport-security']).toBeDefined();
      expect(response.headers['cross-origin-opener-policy']).toBe('same-origin');
      expect(response.headers['content-security-policy']).toContain('upgrade-insecure-requests');
    } finally {
      await overTls.close();
    }
  });

  describe('CORS', () => {
    it('echoes an allowed origin exactly, with Vary: Origin', async () => {
      const response = await testApp.http.get('/nope').set('Origin', 'https://portal.example.com');
      expect(response.headers['access-control-allow-origin']).toBe('https://portal.example.com');
      expect(response.headers.vary).toMatch(/Origin/);
    });

    it('exposes the headers a portal reads, Location (a webhook just created) included', async () => {
      const response = await testApp.http.get('/nope').set('Origin', 'https://portal.example.com');
      expect(response.headers['access-control-expose-headers']).toBe(
        'ETag,Link,Location,X-Request-Id,Retry-After,Deprecation,Sunset,WWW-Authenticate,Allow,RateLimit,RateLimit-Policy',
      );
    });

    it('never allows another origin, nor *', async () => {
      const response = await testApp.http.get('/nope').set('Origin', 'https://evil.example.com');
      expect(response.headers['access-control-allow-origin']).toBeUndefined();
    });

    const preflight = (app: TestApp, method: string, headers: string) =>
      app.http
        .options('/api/processes')
        .set('Origin', 'https://portal.example.com')
        .set('Access-Control-Request-Method', method)
        .set('Access-Control-Request-Headers', headers)
        .expect(204);
    const OWN_HEADERS =
      'Authorization,Content-Type,If-None-Match,Last-Event-ID,X-Request-Id,Cache-Control,Pragma,' +
      'Accept-Language,traceparent,tracestate';

    it('answers an allowed preflight: the API’s methods, and the headers browsers and tracing add', async () => {
      const response = await preflight(
        testApp,
        'GET',
        'authorization,if-none-match,cache-control,pragma,traceparent,tracestate',
      );
      expect(response.headers['access-control-allow-origin']).toBe('https://portal.example.com');
      expect(response.headers['access-control-allow-methods']).toBe('GET,HEAD,POST,PATCH,DELETE');
      expect(response.headers['access-control-allow-headers']).toBe(OWN_HEADERS);
    });

    it('allows the request headers CORS_ALLOWED_HEADERS adds, once each', async () => {
      const withMore = await TestApp.start({ env: { CORS_ALLOWED_HEADERS: 'X-Tenant, baggage, pragma' } });
      try {
        const response = await preflight(withMore, 'POST', 'content-type,x-tenant,baggage');
        expect(response.headers['access-control-allow-headers']).toBe(`${OWN_HEADERS},X-Tenant,baggage`);
      } finally {
        await withMore.close();
      }
    });
  });
});
