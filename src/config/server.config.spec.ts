import { problemWith } from '../testing/configuration.js';
import { loadAppConfig } from './app.config.js';
import { startupLogSettings } from './server.config.js';

describe('CORS_ORIGINS', () => {
  it('accepts exact http and https origins, trimmed, empty items dropped', () => {
    expect(
      loadAppConfig({ CORS_ORIGINS: ' https://a.example.com ,,http://localhost:3001' }).cors.origins,
    ).toEqual(['https://a.example.com', 'http://localhost:3001']);
  });

  it.each([
    '*',
    'https://*.example.com',
    'https://portal.example.com/',
    'https://portal.example.com/app',
    'https://portal.example.com?x=1',
    'ftp://portal.example.com',
    'file:///etc/passwd',
    'portal.example.com',
    'https://user@portal.example.com',
    'https://PORTAL.example.com',
    'https://portal.example.com:443',
    'null',
  ])('refuses %j', (origin) => {
    expect(problemWith({ CORS_ORIGINS: `https://ok.example.com,${origin}` })).toContain(
      `CORS_ORIGINS: "${origin}" is not an origin`,
    );
  });
});

describe('TRUST_PROXY', () => {
  it.each([
    ['0', 0],
    ['1', 1],
    ['loopback', ['loopback']],
    ['loopback, 10.0.0.0/8, 192.168.1.7', ['loopback', '10.0.0.0/8', '192.168.1.7']],
    ['linklocal,uniquelocal', ['linklocal', 'uniquelocal']],
    ['::1, fd00::/8', ['::1', 'fd00::/8']],
  ])('reads %j', (value, expected) => {
    expect(loadAppConfig({ TRUST_PROXY: value }).trustProxy).toEqual(expected);
  });

  it.each(['true', 'everyone', '10.0.0.0/abc', '10.0.0/8', '1.5', '-1', ',', 'loopback,example.com'])(
    'refuses %j',
    (value) => {
      expect(problemWith({ TRUST_PROXY: value })).toContain('TRUST_PROXY: must be');
    },
  );
});

describe(startupLogSettings.name, () => {
  it('takes the valid NODE_ENV and LOG_LEVEL, as the configuration will', () => {
    expect(startupLogSettings({ NODE_ENV: 'production', LOG_LEVEL: 'warn' })).toEqual({
      nodeEnv: 'production',
      logLevel: 'warn',
    });
    expect(startupLogSettings({})).toEqual({ nodeEnv: 'development', logLevel: 'info' });
  });

  it('writes JSON at info when they are invalid, so their own error is seen', () => {
    expect(startupLogSettings({ NODE_ENV: 'prod', LOG_LEVEL: 'loud' })).toEqual({
      nodeEnv: 'production',
      logLevel: 'info',
    });
  });
});
