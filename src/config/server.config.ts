import { isIP } from 'node:net';
import { Transform } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Max, Min } from 'class-validator';
import { BOOLEANS, type BooleanText, emptyAsUnset, parseList, toInteger } from './environment-values.js';
import { type FeatureConfig, NODE_ENVS, type NodeEnvironment } from './feature-config.js';

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];
/** What Express's `trust proxy` setting accepts: off, a hop count, or addresses/subnets. */
export type TrustProxySetting = false | number | string[];

// Validators run from the property outwards and stop at the first failure: the type check sits
// closest so that `1e3` reads "must be an integer", not "must not be greater than".

/** The variables every part of the service shares: mode, HTTP listener, proxies, CORS, TLS, shutdown. */
export class ServerVariables {
  @IsOptional()
  @IsIn(NODE_ENVS)
  @Transform(emptyAsUnset)
  NODE_ENV?: NodeEnvironment;

  @IsOptional()
  @Transform(toInteger)
  @Min(0)
  @Max(65535)
  @IsInt()
  PORT?: number;

  @IsOptional()
  @Transform(emptyAsUnset)
  @IsIn(LOG_LEVELS)
  LOG_LEVEL?: LogLevel;

  @IsOptional()
  @Transform(emptyAsUnset)
  @IsString()
  CORS_ORIGINS?: string;

  @IsOptional()
  @Transform(emptyAsUnset)
  @IsString()
  CORS_ALLOWED_HEADERS?: string;

  @IsOptional()
  @Transform(emptyAsUnset)
  @IsString()
  TRUST_PROXY?: string;

  @IsOptional()
  @Transform(toInteger)
  @Min(0)
  @Max(60_000)
  @IsInt()
  SHUTDOWN_GRACE_MS?: number;

  @IsOptional()
  @Transform(emptyAsUnset)
  @IsIn(BOOLEANS, { message: 'must be true or false' })
  SERVED_OVER_TLS?: BooleanText;
}

/** The server's settings: top-level properties of `AppConfig`, as every feature reads them. */
export interface ServerConfig {
  nodeEnv: NodeEnvironment;
  port: number;
  logLevel: LogLevel;
  /** Origins allowed exactly; request headers allowed beyond the service's own (`CORS_ALLOWED_HEADERS`). */
  cors: { origins: string[]; allowedHeaders: string[] };
  /** After a termination signal: how long the listener keeps accepting, readiness 503, before closing. */
  shutdownGraceMs: number;
  /** Clients reach the service over HTTPS (here or at a proxy): HSTS and upgrade-insecure-requests. */
  servedOverTls: boolean;
  trustProxy: TrustProxySetting;
}

export const serverConfig = {
  variables: ServerVariables,
  problems: listProblems,
  section: (vars, { nodeEnv }) => ({
    nodeEnv,
    port: vars.PORT ?? 3000,
    logLevel: vars.LOG_LEVEL ?? defaultLogLevel(nodeEnv),
    cors: { origins: parseList(vars.CORS_ORIGINS), allowedHeaders: parseList(vars.CORS_ALLOWED_HEADERS) },
    shutdownGraceMs: vars.SHUTDOWN_GRACE_MS ?? 3000,
    servedOverTls: vars.SERVED_OVER_TLS === 'true',
    trustProxy: parseTrustProxy(vars.TRUST_PROXY) ?? false,
  }),
} satisfies FeatureConfig<ServerVariables, ServerConfig>;

/** The lists `class-validator` sees only as strings: each is refused by its first bad item. */
function listProblems(vars: ServerVariables): string[] {
  const problems: string[] = [];
  const badOrigin = parseList(vars.CORS_ORIGINS).find((origin) => !isExactOrigin(origin));
  if (badOrigin !== undefined) {
    problems.push(`CORS_ORIGINS: "${badOrigin}" is not an origin like https://portal.example.com`);
  }
  const badHeader = parseList(vars.CORS_ALLOWED_HEADERS).find((name) => !HEADER_NAME.test(name));
  if (badHeader !== undefined) {
    problems.push(`CORS_ALLOWED_HEADERS: "${badHeader}" is not a header name like X-Tenant`);
  }
  if (parseTrustProxy(vars.TRUST_PROXY) === undefined) {
    problems.push(
      'TRUST_PROXY: must be a hop count or a comma-separated list of addresses, subnets or loopback/linklocal/uniquelocal',
    );
  }
  return problems;
}

/** How logs are written: the part of the configuration start-up needs before the rest is validated. */
export type LogSettings = Pick<ServerConfig, 'logLevel' | 'nodeEnv'>;

/**
 * The log settings as far as the environment gives valid ones, for the lines written while the
 * configuration is still being read (its own errors among them): JSON lines unless in development.
 */
export function startupLogSettings(env: NodeJS.ProcessEnv): LogSettings {
  const nodeEnv = NODE_ENVS.find((value) => value === (env.NODE_ENV ?? 'development')) ?? 'production';
  const logLevel = LOG_LEVELS.find((value) => value === env.LOG_LEVEL) ?? defaultLogLevel(nodeEnv);
  return { nodeEnv, logLevel };
}

const defaultLogLevel = (nodeEnv: NodeEnvironment): LogLevel => (nodeEnv === 'test' ? 'silent' : 'info');

/** A header field name: an RFC 9110 token. */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

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
