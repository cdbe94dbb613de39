import { problemWith } from '../testing/configuration.js';
import { ConfigurationError, loadAppConfig } from './app.config.js';

const SECRET = 'x'.repeat(32);

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

  it('is silent by default in tests', () => {
    expect(loadAppConfig({ NODE_ENV: 'test' }).logLevel).toBe('silent');
  });

  it('leaves demo mode off in production even without a database URL', () => {
    expect(loadAppConfig({ NODE_ENV: 'production', JWT_SECRET: SECRET }).demoMode).toBe(false);
  });
});

describe(ConfigurationError.name, () => {
  it('has no stack: its message names every variable at fault', () => {
    expect(new ConfigurationError('Invalid configuration').stack).toBeUndefined();
  });
});
