import { TestApp } from './support/test-app.js';

/**
 * Security headers and CORS as configuration shapes them (`SERVED_OVER_TLS`, `CORS_ORIGINS`,
 * `CORS_ALLOWED_HEADERS`): the black-box suite checks what every deployment shares.
 */
describe('security headers and CORS, by configuration', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await TestApp.start();
  });

  afterAll(() => testApp.close());

  it('sends no HTTPS-only headers over plain HTTP', async () => {
    const response = await testApp.http.get('/nope');
    expect(response.headers['strict-transport-security']).toBeUndefined();
    expect(response.headers['cross-origin-opener-policy']).toBeUndefined();
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
    it('echoes an origin of CORS_ORIGINS exactly, with Vary: Origin', async () => {
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
