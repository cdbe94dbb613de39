import { loadAppConfig } from './config/app.config.js';
import { startupBanner } from './startup-banner.js';

describe(startupBanner.name, () => {
  it('names the URL, the docs, the portal, the sandbox and the demo users in demo mode', () => {
    const config = loadAppConfig({ PORT: '3000', OPERATIONS_BASE_URL: 'http://127.0.0.1:3100' });

    const banner = startupBanner(config);

    expect(config.demoMode).toBe(true);
    expect(banner).toMatch(/^Process Lookup Service is listening on http:\/\/localhost:3000$/m);
    expect(banner).toContain('http://localhost:3000/docs');
    expect(banner).toContain('http://localhost:3000/portal/');
    expect(banner).toContain('acme / acme-demo-2026 (acme)');
    expect(banner).toContain('operator / operator-demo-2026 (staff)');
    expect(banner).toMatch(/^ {2}Sandbox {8}http:\/\/127\.0\.0\.1:3100 \(.*npm run sandbox -- help\)$/m);
  });

  it('names no user nor portal outside demo mode', () => {
    const config = loadAppConfig({
      NODE_ENV: 'production',
      PORT: '8080',
      DATABASE_URL: 'postgres://app@db/app',
      JWT_SECRET: 'a-production-secret-that-is-long-enough-0123',
      OPERATIONS_BASE_URL: 'https://ops.example.com/api',
    });

    const banner = startupBanner(config);

    expect(banner).toContain('http://localhost:8080/docs');
    expect(banner).toMatch(/^ {2}Operations {5}https:\/\/ops\.example\.com\/api$/m);
    expect(banner).not.toMatch(/portal|demo|password|sandbox/i);
  });
});
