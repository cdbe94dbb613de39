import { hkdfSync, randomBytes } from 'node:crypto';
import { isIP } from 'node:net';
import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import {
  EnvironmentVariables,
  LOG_LEVELS,
  NODE_ENVS,
  type WEBHOOK_DELIVERY_PLACES,
} from './environment.variables.js';

export type NodeEnvironment = 'development' | 'production' | 'test';
export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
/** What Express's `trust proxy` setting accepts: off, a hop count, or addresses/subnets. */
export type TrustProxySetting = false | number | string[];

/**
 * The service's whole configuration, validated once at start-up. The only reader of
 * `process.env` is {@link loadAppConfig}; everything else injects this class.
 */
export class AppConfig {
  nodeEnv!: NodeEnvironment;
  port!: number;
  logLevel!: LogLevel;
  database!: {
    /** `null`: the embedded PGlite in {@link pgliteDir}. */
    url: string | null;
    pgliteDir: string;
    /** Bounds every statement, and every wait for a connection, of a PostgreSQL server. */
    statementTimeoutMs: number;
  };
  jwt!: {
    secret: string;
    /** True when no secret was configured and a random one was made (tokens die with the process). */
    secretGenerated: boolean;
    expiresInSeconds: number;
    /** The longest a sign-in lasts from its login, however often it is refreshed. */
    refreshExpiresInSeconds: number;
    issuer: string;
    audience: string;
  };
  operations!: {
    /** Required wherever the operations system is read; `npm start` sets it to its sandbox in demo mode. */
    baseUrl: string | null;
    apiKey: string | null;
    /** Verifies change notifications from the operations system; `null`: the route is off. */
    notifySecret: string | null;
    timeoutMs: number;
    cacheTtlSeconds: number;
    staleTtlSeconds: number;
  };
  sync!: { intervalSeconds: number };
  redisUrl!: string | null;
  /** Origins allowed exactly; request headers allowed beyond the service's own (`CORS_ALLOWED_HEADERS`). */
  cors!: { origins: string[]; allowedHeaders: string[] };
  /** After a termination signal: how long the listener keeps accepting, readiness 503, before closing. */
  shutdownGraceMs!: number;
  /** Clients reach the service over HTTPS (here or at a proxy): HSTS and upgrade-insecure-requests. */
  servedOverTls!: boolean;
  trustProxy!: TrustProxySetting;
  rateLimits!: { perUserPerMinute: number };
  changes!: {
    /** Changes older than this are deleted; a cursor or `since` before it is 410. */
    retentionDays: number;
    /** A comment line on an idle stream this often, so proxies keep it open. */
    heartbeatSeconds: number;
    /** Open streams a user may hold at once (429 beyond). */
    streamsPerUser: number;
    /**
     * A stream whose reader takes no bytes for this long, while some wait for it, is closed.
     * Not an environment variable: the contract says 60 s; tests shorten it.
     */
    stalledReaderMs: number;
  };
  webhooks!: {
    /** `http://` receivers accepted (`https://` only otherwise). */
    allowHttp: boolean;
    /** Loopback, private, multicast and reserved receivers accepted (link-local never). */
    allowPrivateTargets: boolean;
    /** The AES-256-GCM key that encrypts webhook secrets at rest (32 bytes). */
    secretKey: Buffer;
    /** True when no `WEBHOOK_SECRET_KEY` was configured and the key was derived from the JWT secret. */
    secretKeyDerived: boolean;
    /**
     * Where deliveries run: a worker thread of their own (a PostgreSQL server), or the API's own
     * thread (PGlite, whose database lives in that thread's memory).
     */
    delivery: (typeof WEBHOOK_DELIVERY_PLACES)[number];
  };
  /** The reference portal at `/portal`: on in demo mode unless `PORTAL_ENABLED` says otherwise. */
  portal!: { enabled: boolean };
  /** Demo mode: no database URL and not production; the sandbox's data and demo users. */
  demoMode!: boolean;
}

export class ConfigurationError extends Error {
  override readonly name = 'ConfigurationError';

  constructor(message: string) {
    super(message);
    // The message names every variable at fault; a stack would only bury it in the log line.
    delete this.stack;
  }
}

/** How logs are written: the part of the configuration start-up needs before the rest is validated. */
export type LogSettings = Pick<AppConfig, 'logLevel' | 'nodeEnv'>;

/**
 * The log settings as far as the environment gives valid ones, for the lines written while the
 * configuration is still being read (its own errors among them): JSON lines unless in development.
 */
export function startupLogSettings(env: NodeJS.ProcessEnv): LogSettings {
  const nodeEnv = NODE_ENVS.find((value) => value === (env.NODE_ENV ?? 'development')) ?? 'production';
  const logLevel =
    LOG_LEVELS.find((value) => value === env.LOG_LEVEL) ?? (nodeEnv === 'test' ? 'silent' : 'info');
  return { nodeEnv, logLevel };
}

export function loadAppConfig(env: NodeJS.ProcessEnv): AppConfig {
  const vars = plainToInstance(EnvironmentVariables, { ...env }, { excludeExtraneousValues: false });
  const problems = validateSync(vars, { forbidUnknownValues: false, stopAtFirstError: true }).map(
    (error) =>
      `${error.property}: ${Object.values(error.constraints ?? {})
        .map((message) => message.replace(`${error.property} `, ''))
        .join('; ')}`,
  );
  const nodeEnv = vars.NODE_ENV ?? 'development';
  if (nodeEnv === 'production' && vars.JWT_SECRET === undefined && !problems.some(isAbout('JWT_SECRET'))) {
    problems.push('JWT_SECRET: is required in production (at least 32 bytes)');
  }
  const corsOrigins = parseList(vars.CORS_ORIGINS);
  const badOrigin = corsOrigins.find((origin) => !isExactOrigin(origin));
  if (badOrigin !== undefined) {
    problems.push(`CORS_ORIGINS: "${badOrigin}" is not an origin like https://portal.example.com`);
  }
  const corsAllowedHeaders = parseList(vars.CORS_ALLOWED_HEADERS);
  const badHeader = corsAllowedHeaders.find((name) => !HEADER_NAME.test(name));
  if (badHeader !== undefined) {
    problems.push(`CORS_ALLOWED_HEADERS: "${badHeader}" is not a header name like X-Tenant`);
  }
  const trustProxy = parseTrustProxy(vars.TRUST_PROXY);
  if (trustProxy === undefined) {
    problems.push(
      'TRUST_PROXY: must be a hop count or a comma-separated list of addresses, subnets or loopback/linklocal/uniquelocal',
    );
  }
  if (vars.WEBHOOK_DELIVERY === 'thread' && vars.DATABASE_URL === undefined) {
    problems.push(
      'WEBHOOK_DELIVERY: thread needs DATABASE_URL (the embedded PGlite lives in the main thread’s memory)',
    );
  }
  if (problems.length > 0) {
    throw new ConfigurationError(`Invalid configuration:\n  ${problems.join('\n  ')}`);
  }

  const demoMode = vars.DATABASE_URL === undefined && nodeEnv !== 'production';
  const jwtSecret = vars.JWT_SECRET ?? randomBytes(48).toString('base64url');
  return Object.assign(new AppConfig(), {
    nodeEnv,
    port: vars.PORT ?? 3000,
    logLevel: vars.LOG_LEVEL ?? (nodeEnv === 'test' ? 'silent' : 'info'),
    database: {
      url: vars.DATABASE_URL ?? null,
      pgliteDir: vars.PGLITE_DIR ?? './.data/pglite',
      statementTimeoutMs: vars.DATABASE_STATEMENT_TIMEOUT_MS ?? 5000,
    },
    jwt: {
      secret: jwtSecret,
      secretGenerated: vars.JWT_SECRET === undefined,
      expiresInSeconds: vars.JWT_EXPIRES_IN ?? 900,
      refreshExpiresInSeconds: vars.JWT_REFRESH_EXPIRES_IN ?? 604800,
      issuer: vars.JWT_ISSUER ?? 'process-lookup',
      audience: vars.JWT_AUDIENCE ?? 'process-lookup-api',
    },
    operations: {
      baseUrl: vars.OPERATIONS_BASE_URL ?? null,
      apiKey: vars.OPERATIONS_API_KEY ?? null,
      notifySecret: vars.OPERATIONS_NOTIFY_SECRET ?? null,
      timeoutMs: vars.OPERATIONS_TIMEOUT_MS ?? 2000,
      cacheTtlSeconds: vars.OPERATIONS_CACHE_TTL_S ?? 60,
      staleTtlSeconds: vars.OPERATIONS_STALE_TTL_S ?? 86400,
    },
    sync: { intervalSeconds: vars.SYNC_INTERVAL_S ?? 60 },
    redisUrl: vars.REDIS_URL ?? null,
    cors: { origins: corsOrigins, allowedHeaders: corsAllowedHeaders },
    servedOverTls: vars.SERVED_OVER_TLS === 'true',
    shutdownGraceMs: vars.SHUTDOWN_GRACE_MS ?? 3000,
    trustProxy: trustProxy ?? false,
    rateLimits: { perUserPerMinute: vars.RATE_LIMIT_PER_USER_PER_MINUTE ?? 600 },
    changes: {
      retentionDays: vars.CHANGES_RETENTION_DAYS ?? 30,
      heartbeatSeconds: vars.CHANGES_HEARTBEAT_S ?? 15,
      streamsPerUser: vars.CHANGES_STREAMS_PER_USER ?? 5,
      stalledReaderMs: 60_000,
    },
    webhooks: {
      allowHttp: flag(vars.WEBHOOK_ALLOW_HTTP, demoMode),
      allowPrivateTargets: flag(vars.WEBHOOK_ALLOW_PRIVATE_TARGETS, demoMode),
      secretKey:
        vars.WEBHOOK_SECRET_KEY === undefined
          ? derivedWebhookKey(jwtSecret)
          : Buffer.from(vars.WEBHOOK_SECRET_KEY, 'base64'),
      secretKeyDerived: vars.WEBHOOK_SECRET_KEY === undefined,
      delivery: vars.WEBHOOK_DELIVERY ?? (vars.DATABASE_URL === undefined ? 'in-process' : 'thread'),
    },
    portal: { enabled: flag(vars.PORTAL_ENABLED, demoMode) },
    demoMode,
  } satisfies AppConfig);
}

/** A true/false variable; unset: `fallback`. */
const flag = (value: 'true' | 'false' | undefined, fallback: boolean): boolean =>
  value === undefined ? fallback : value === 'true';

/**
 * Without `WEBHOOK_SECRET_KEY`, the key is derived from the JWT secret (HKDF-SHA256), so that
 * every instance of one deployment reads the secrets the others stored.
 */
function derivedWebhookKey(jwtSecret: string): Buffer {
  return Buffer.from(hkdfSync('sha256', jwtSecret, 'process-lookup', 'webhook-secrets', 32));
}

/** A header field name: an RFC 9110 token. */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

const isAbout = (variable: string) => (problem: string) => problem.startsWith(`${variable}:`);

function parseList(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item.length > 0);
}

/**
 * An origin is scheme + host (+ port) and nothing else; `*` is never accepted, nor a wildcard
 * host like `https://*.example.com`, which URL parses but no browser ever sends.
 */
function isExactOrigin(value: string): boolean {
  try {
    const url = new URL(value);
    return (
      (url.protocol === 'http:' || url.protocol === 'https:') && url.origin === value && !value.includes('*')
    );
  } catch {
    return false;
  }
}

const PROXY_SUBNET_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

function parseTrustProxy(value: string | undefined): TrustProxySetting | undefined {
  if (value === undefined) return false;
  if (/^\d+$/.test(value)) return Number(value);
  const entries = parseList(value);
  const valid = entries.every((entry) => {
    const [address, prefix] = entry.split('/');
    if (PROXY_SUBNET_NAMES.has(entry)) return true;
    return address !== undefined && isIP(address) !== 0 && (prefix === undefined || /^\d{1,3}$/.test(prefix));
  });
  return entries.length > 0 && valid ? entries : undefined;
}
