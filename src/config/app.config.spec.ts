import { ConfigurationError, loadAppConfig } from './app.config.js';
import { startupLogSettings } from './server.config.js';

const SECRET = 'x'.repeat(32);

/** The message of the error `loadAppConfig` stops with, or a failure when it does not stop. */
function problemWith(env: NodeJS.ProcessEnv): string {
  try {
    loadAppConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigurationError);
    return (error as Error).message;
  }
  throw new Error(`expected ${JSON.stringify(env)} to be refused`);
}

describe(loadAppConfig.name, () => {
  it('applies the documented defaults to an empty environment', () => {
    const sut = loadAppConfig({});

    expect(sut).toMatchObject({
      nodeEnv: 'development',
      port: 3000,
      logLevel: 'info',
      database: { url: null, pgliteDir: './.data/pglite', statementTimeoutMs: 5000 },
      jwt: {
        expiresInSeconds: 900,
        refreshExpiresInSeconds: 604800,
        issuer: 'process-lookup',
        audience: 'process-lookup-api',
      },
      operations: {
        baseUrl: null,
        apiKey: null,
        timeoutMs: 2000,
        cacheTtlSeconds: 60,
        staleTtlSeconds: 86400,
      },
      sync: { intervalSeconds: 60 },
      redisUrl: null,
      cors: { origins: [], allowedHeaders: [] },
      servedOverTls: false,
      shutdownGraceMs: 3000,
      trustProxy: false,
      rateLimits: { perUserPerMinute: 600 },
      changes: { retentionDays: 30, heartbeatSeconds: 15, streamsPerUser: 5 },
    });
    expect(sut.demoMode).toBe(true);
  });

  it('treats empty values as unset', () => {
    const sut = loadAppConfig({
      DATABASE_URL: '',
      JWT_SECRET: '',
      REDIS_URL: '',
      NODE_ENV: '',
      LOG_LEVEL: '',
    });

    expect(sut.database.url).toBeNull();
    expect(sut.redisUrl).toBeNull();
    expect(sut.nodeEnv).toBe('development');
    expect(sut.jwt.secretGenerated).toBe(true);
  });

  it('reads every variable', () => {
    const sut = loadAppConfig({
      NODE_ENV: 'production',
      PORT: '8080',
      LOG_LEVEL: 'debug',
      DATABASE_URL: 'postgres://app@db:5432/app',
      PGLITE_DIR: '/var/lib/pglite',
      DATABASE_STATEMENT_TIMEOUT_MS: '2500',
      JWT_SECRET: SECRET,
      JWT_EXPIRES_IN: '600',
      JWT_REFRESH_EXPIRES_IN: '86400',
      JWT_ISSUER: 'issuer',
      JWT_AUDIENCE: 'audience',
      OPERATIONS_BASE_URL: 'https://ops.internal:8443/api',
      OPERATIONS_API_KEY: 'key',
      OPERATIONS_TIMEOUT_MS: '500',
      OPERATIONS_CACHE_TTL_S: '30',
      OPERATIONS_STALE_TTL_S: '3600',
      SYNC_INTERVAL_S: '15',
      REDIS_URL: 'rediss://cache:6380',
      CORS_ORIGINS: 'https://portal.example.com, http://localhost:5173',
      CORS_ALLOWED_HEADERS: 'X-Tenant, baggage',
      TRUST_PROXY: '2',
      SERVED_OVER_TLS: 'true',
      RATE_LIMIT_PER_USER_PER_MINUTE: '100',
    });

    expect(sut).toMatchObject({
      nodeEnv: 'production',
      port: 8080,
      logLevel: 'debug',
      database: { url: 'postgres://app@db:5432/app', pgliteDir: '/var/lib/pglite', statementTimeoutMs: 2500 },
      jwt: {
        secret: SECRET,
        secretGenerated: false,
        expiresInSeconds: 600,
        refreshExpiresInSeconds: 86400,
        issuer: 'issuer',
        audience: 'audience',
      },
      operations: {
        baseUrl: 'https://ops.internal:8443/api',
        apiKey: 'key',
        timeoutMs: 500,
        cacheTtlSeconds: 30,
        staleTtlSeconds: 3600,
      },
      sync: { intervalSeconds: 15 },
      redisUrl: 'rediss://cache:6380',
      cors: {
        origins: ['https://portal.example.com', 'http://localhost:5173'],
        allowedHeaders: ['X-Tenant', 'baggage'],
      },
      servedOverTls: true,
      trustProxy: 2,
      rateLimits: { perUserPerMinute: 100 },
    });
    expect(sut.demoMode).toBe(false);
  });

  it.each([
    ['NODE_ENV', 'staging'],
    ['PORT', '70000'],
    ['PORT', '-1'],
    ['PORT', 'http'],
    ['DATABASE_URL', 'mysql://db/app'],
    ['DATABASE_URL', 'postgres://[db/app'],
    ['DATABASE_URL', 'postgres://db:99999/app'],
    ['DATABASE_STATEMENT_TIMEOUT_MS', '99'],
    ['SERVED_OVER_TLS', 'yes'],
    ['SHUTDOWN_GRACE_MS', '60001'],
    ['DATABASE_STATEMENT_TIMEOUT_MS', '5s'],
    ['JWT_SECRET', 'x'.repeat(31)],
    ['JWT_EXPIRES_IN', '59'],
    ['JWT_EXPIRES_IN', '86401'],
    ['JWT_REFRESH_EXPIRES_IN', '299'],
    ['JWT_REFRESH_EXPIRES_IN', 'a week'],
    ['OPERATIONS_BASE_URL', 'ftp://ops.internal'],
    ['OPERATIONS_BASE_URL', 'ops.internal'],
    ['OPERATIONS_TIMEOUT_MS', '49'],
    ['OPERATIONS_TIMEOUT_MS', '60001'],
    ['OPERATIONS_CACHE_TTL_S', '86401'],
    ['OPERATIONS_STALE_TTL_S', '604801'],
    ['SYNC_INTERVAL_S', 'soon'],
    ['REDIS_URL', 'http://cache:6379'],
    ['OTEL_EXPORTER_OTLP_ENDPOINT', 'collector:4318'],
    ['CORS_ORIGINS', '*'],
    ['CORS_ALLOWED_HEADERS', 'X-Tenant, X Tenant'],
    ['CORS_ALLOWED_HEADERS', 'X-Tenant: 1'],
    ['TRUST_PROXY', 'everyone'],
    ['RATE_LIMIT_PER_USER_PER_MINUTE', '0'],
    ['CHANGES_RETENTION_DAYS', '0'],
    ['CHANGES_HEARTBEAT_S', '1.5'],
    ['CHANGES_STREAMS_PER_USER', '101'],
    ['LOG_LEVEL', 'verbose'],
  ])('stops on %s=%j and names the variable', (variable, value) => {
    const message = problemWith({ [variable]: value });

    expect(message).toMatch(new RegExp(`^\\s+${variable}: `, 'm'));
  });

  it('lists every invalid variable at once', () => {
    const message = problemWith({ PORT: 'x', LOG_LEVEL: 'loud', REDIS_URL: 'nope' });

    expect(message).toMatch(/^Invalid configuration:/);
    for (const variable of ['PORT', 'LOG_LEVEL', 'REDIS_URL']) expect(message).toContain(`${variable}:`);
  });

  it('names a DATABASE_URL pg cannot read beside every other invalid variable', () => {
    const message = problemWith({ DATABASE_URL: 'postgres://[db/app', JWT_SECRET: 'short', PORT: 'x' });

    for (const variable of ['DATABASE_URL', 'JWT_SECRET', 'PORT']) {
      expect(message).toMatch(new RegExp(`^\\s+${variable}: `, 'm'));
    }
    expect(message).not.toContain('TypeError');
  });

  it.each(['1e3', '0x10', '1.5', ' 80', '+80', '80 '])('refuses %j where an integer is expected', (value) => {
    for (const variable of ['PORT', 'JWT_EXPIRES_IN', 'OPERATIONS_TIMEOUT_MS', 'SYNC_INTERVAL_S']) {
      expect(problemWith({ [variable]: value })).toContain(`${variable}:`);
    }
  });

  describe('JWT_SECRET', () => {
    it('is required in production', () => {
      expect(problemWith({ NODE_ENV: 'production' })).toContain('JWT_SECRET: is required in production');
    });

    it('must be at least 32 bytes in production, reported once', () => {
      const message = problemWith({ NODE_ENV: 'production', JWT_SECRET: 'short' });

      expect(message).toContain('JWT_SECRET: must be at least 32 bytes long');
      expect(message.match(/JWT_SECRET:/g)).toHaveLength(1);
    });

    it.each(['development', 'test'])('is generated in %s when missing, and flagged', (nodeEnv) => {
      const first = loadAppConfig({ NODE_ENV: nodeEnv });
      const second = loadAppConfig({ NODE_ENV: nodeEnv });

      expect(first.jwt.secretGenerated).toBe(true);
      expect(Buffer.byteLength(first.jwt.secret)).toBeGreaterThanOrEqual(32);
      expect(first.jwt.secret).not.toBe(second.jwt.secret);
    });

    it('is taken as given and not flagged when set', () => {
      expect(loadAppConfig({ JWT_SECRET: SECRET }).jwt).toMatchObject({
        secret: SECRET,
        secretGenerated: false,
      });
    });
  });

  it('is silent by default in tests', () => {
    expect(loadAppConfig({ NODE_ENV: 'test' }).logLevel).toBe('silent');
  });

  it('leaves demo mode off in production even without a database URL', () => {
    expect(loadAppConfig({ NODE_ENV: 'production', JWT_SECRET: SECRET }).demoMode).toBe(false);
  });

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

  describe('webhooks', () => {
    const production = { NODE_ENV: 'production', JWT_SECRET: SECRET };

    it('allows http and private targets in demo mode only, unless told otherwise', () => {
      expect(loadAppConfig({}).webhooks).toMatchObject({ allowHttp: true, allowPrivateTargets: true });
      expect(loadAppConfig(production).webhooks).toMatchObject({
        allowHttp: false,
        allowPrivateTargets: false,
      });
      expect(
        loadAppConfig({ ...production, WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' })
          .webhooks,
      ).toMatchObject({ allowHttp: true, allowPrivateTargets: true });
      expect(loadAppConfig({ WEBHOOK_ALLOW_PRIVATE_TARGETS: 'false' }).webhooks.allowPrivateTargets).toBe(
        false,
      );
    });

    it('reads the secrets key, or derives one from the JWT secret', () => {
      const key = Buffer.alloc(32, 7);
      const configured = loadAppConfig({ ...production, WEBHOOK_SECRET_KEY: key.toString('base64') });
      const derived = loadAppConfig(production);

      expect(configured.webhooks).toMatchObject({ secretKey: key, secretKeyDerived: false });
      expect(derived.webhooks.secretKeyDerived).toBe(true);
      expect(derived.webhooks.secretKey).toHaveLength(32);
      expect(loadAppConfig(production).webhooks.secretKey).toEqual(derived.webhooks.secretKey);
    });

    it.each(['short', Buffer.alloc(16).toString('base64'), `${'A'.repeat(43)}`])(
      'refuses the key %j',
      (value) => {
        expect(problemWith({ WEBHOOK_SECRET_KEY: value })).toContain(
          'WEBHOOK_SECRET_KEY: must be 32 bytes in base64',
        );
      },
    );

    it('delivers on a thread of its own with a PostgreSQL server, in-process on PGlite, unless told', () => {
      const server = { ...production, DATABASE_URL: 'postgres://db.internal/lookup' };
      expect(loadAppConfig(server).webhooks.delivery).toBe('thread');
      expect(loadAppConfig({}).webhooks.delivery).toBe('in-process');
      expect(loadAppConfig({ ...server, WEBHOOK_DELIVERY: 'in-process' }).webhooks.delivery).toBe(
        'in-process',
      );
    });

    it('refuses a delivery thread on PGlite, and places other than thread or in-process', () => {
      expect(problemWith({ WEBHOOK_DELIVERY: 'thread' })).toContain(
        'WEBHOOK_DELIVERY: thread needs DATABASE_URL',
      );
      expect(problemWith({ WEBHOOK_DELIVERY: 'process' })).toContain(
        'WEBHOOK_DELIVERY: must be thread or in-process',
      );
    });

    it('refuses flags other than true or false', () => {
      expect(problemWith({ WEBHOOK_ALLOW_HTTP: 'yes' })).toContain(
        'WEBHOOK_ALLOW_HTTP: must be true or false',
      );
    });
  });
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

describe(ConfigurationError.name, () => {
  it('has no stack: its message names every variable at fault', () => {
    expect(new ConfigurationError('Invalid configuration').stack).toBeUndefined();
  });
});
