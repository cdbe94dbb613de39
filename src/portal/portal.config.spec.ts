import { loadAppConfig } from '../config/app.config.js';
import { problemWith } from '../testing/configuration.js';

const SECRET = 'x'.repeat(32);

describe('PORTAL_ENABLED', () => {
  it('serves the portal in demo mode and not otherwise when unset', () => {
    expect(loadAppConfig({}).portal.enabled).toBe(true);
    expect(loadAppConfig({ DATABASE_URL: 'postgres://db/app' }).portal.enabled).toBe(false);
    expect(loadAppConfig({ NODE_ENV: 'production', JWT_SECRET: SECRET }).portal.enabled).toBe(false);
  });

  it.each([
    ['true', { DATABASE_URL: 'postgres://db/app' }, true],
    ['false', {}, false],
  ])('reads %j whatever the mode', (value, env, expected) => {
    expect(loadAppConfig({ ...env, PORTAL_ENABLED: value }).portal.enabled).toBe(expected);
  });

  it.each(['yes', '1', 'TRUE'])('refuses %j', (value) => {
    expect(problemWith({ PORTAL_ENABLED: value })).toContain('PORTAL_ENABLED: must be true or false');
  });
});
