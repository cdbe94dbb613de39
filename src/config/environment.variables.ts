import { Transform } from 'class-transformer';
import {
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  IsUrl,
  Matches,
  Max,
  Min,
  MinLength,
  ValidateBy,
} from 'class-validator';
import { parse as parseConnectionString } from 'pg-connection-string';

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export const NODE_ENVS = ['development', 'production', 'test'] as const;
const BOOLEANS = ['true', 'false'] as const;
export const WEBHOOK_DELIVERY_PLACES = ['thread', 'in-process'] as const;

const emptyAsUnset = ({ value }: { value: unknown }): unknown => (value === '' ? undefined : value);
/** Env values are strings; only plain decimal integers count (no `1e3`, `0x10`, `1.5`). */
const toInteger = ({ value }: { value: unknown }): unknown =>
  typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value;

const POSTGRES_URL = /^postgres(ql)?:\/\/\S+$/;

/**
 * A postgres:// URL that `pg` itself can read: a malformed one (`postgres://[db`, a port above 65535)
 * would otherwise pass here and fail at the first connection as a bare TypeError.
 */
function IsPostgresUrl(): PropertyDecorator {
  return ValidateBy({
    name: 'isPostgresUrl',
    validator: {
      validate: (value: unknown) =>
        typeof value === 'string' && POSTGRES_URL.test(value) && readsAsPostgresUrl(value),
      defaultMessage: () =>
        'must be a postgres:// or postgresql:// URL (postgres://user:password@host:5432/database)',
    },
  });
}

function readsAsPostgresUrl(value: string): boolean {
  try {
    parseConnectionString(value);
    return true;
  } catch {
    return false;
  }
}

// Validators run from the property outwards and stop at the first failure: the type check sits
// closest so that `1e3` reads "must be an integer", not "must not be greater than".

/** The environment, as read from `process.env`; see `.env.example`. */
export class EnvironmentVariables {
  @IsOptional()
  @IsIn(NODE_ENVS)
  @Transform(emptyAsUnset)
  NODE_ENV?: (typeof NODE_ENVS)[number];

  @IsOptional()
  @Transform(toInteger)
  @Min(0)
  @Max(65535)
  @IsInt()
  PORT?: number;

  @IsOptional()
  @Transform(emptyAsUnset)
  @IsPostgresUrl()
  DATABASE_URL?: string;

  @IsOptional()
  @Transform(emptyAsUnset)
  @IsString()
  PGLITE_DIR?: string;

  @IsOptional()
  @Transform(toInteger)
  @Min(100)
  @Max(600_000)
  @IsInt()
  DATABASE_STATEMENT_TIMEOUT_MS?: number;

  @IsOptional()
  @Transform(emptyAsUnset)
  @MinLength(32, { message: 'must be at least 32 bytes long' })
  JWT_SECRET?: string;

  @IsOptional()
  @Transform(toInteger)
  @Min(60)
  @Max(86400)
  @IsInt()
  JWT_EXPIRES_IN?: number;

  @IsOptional()
  @Transform(toInteger)
  @Min(300)
  @Max(31536000)
  @IsInt()
  JWT_REFRESH_EXPIRES_IN?: number;

  @IsOptional()
  @Transform(emptyAsUnset)
  @IsString()
  JWT_ISSUER?: string;

  @IsOptional()
  @Transform(emptyAsUnset)
  @IsString()
  JWT_AUDIENCE?: string;

  @IsOptional()
  @Transform(emptyAsUnset)
  @IsUrl({ protocols: ['http', 'https'], require_tld: false, require_protocol: true })
  OPERATIONS_BASE_URL?: string;

  @IsOptional()
  @Transform(emptyAsUnset)
  @IsString()
  OPERATIONS_API_KEY?: string;

  @IsOptional()
  @Transform(toInteger)
  @Min(50)
  @Max(60000)
  @IsInt()
  OPERATIONS_TIMEOUT_MS?: number;

  @IsOptional()
  @Transform(emptyAsUnset)
  @Matches(/^whsec_[A-Za-z0-9+/]{16,}={0,2}$/, {
    message: 'must be a Standard Webhooks secret: whsec_ followed by base64 (24 bytes or more)',
  })
  OPERATIONS_NOTIFY_SECRET?: string;

  /** Read by `npm start`, which starts the sandbox there in demo mode; checked here with the rest. */
  @IsOptional()
  @Transform(toInteger)
  @Min(1)
  @Max(65535)
  @IsInt()
  SANDBOX_PORT?: number;

  @IsOptional()
  @Transform(toInteger)
  @Min(0)
  @Max(86400)
  @IsInt()
  OPERATIONS_CACHE_TTL_S?: number;

  @IsOptional()
  @Transform(toInteger)
  @Min(0)
  @Max(604800)
  @IsInt()
  OPERATIONS_STALE_TTL_S?: number;

  @IsOptional()
  @Transform(toInteger)
  @Min(0)
  @Max(86400)
  @IsInt()
  SYNC_INTERVAL_S?: number;

  @IsOptional()
  @Transform(emptyAsUnset)
  @Matches(/^rediss?:\/\/\S+$/, { message: 'must be a redis:// or rediss:// URL' })
  REDIS_URL?: string;

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
  @Min(1)
  @Max(1_000_000)
  @IsInt()
  RATE_LIMIT_PER_USER_PER_MINUTE?: number;

  @IsOptional()
  @Transform(toInteger)
  @Min(0)
  @Max(60_000)
  @IsInt()
  SHUTDOWN_GRACE_MS?: number;

  @IsOptional()
  @Transform(toInteger)
  @Min(1)
  @Max(3650)
  @IsInt()
  CHANGES_RETENTION_DAYS?: number;

  @IsOptional()
  @Transform(toInteger)
  @Min(1)
  @Max(300)
  @IsInt()
  CHANGES_HEARTBEAT_S?: number;

  @IsOptional()
  @Transform(toInteger)
  @Min(1)
  @Max(100)
  @IsInt()
  CHANGES_STREAMS_PER_USER?: number;

  @IsOptional()
  @Transform(emptyAsUnset)
  @IsIn(BOOLEANS, { message: 'must be true or false' })
  SERVED_OVER_TLS?: (typeof BOOLEANS)[number];

  @IsOptional()
  @Transform(emptyAsUnset)
  @IsIn(BOOLEANS, { message: 'must be true or false' })
  PORTAL_ENABLED?: (typeof BOOLEANS)[number];

  @IsOptional()
  @Transform(emptyAsUnset)
  @IsIn(LOG_LEVELS)
  LOG_LEVEL?: (typeof LOG_LEVELS)[number];

  @IsOptional()
  @Transform(emptyAsUnset)
  @IsIn(BOOLEANS, { message: 'must be true or false' })
  WEBHOOK_ALLOW_HTTP?: (typeof BOOLEANS)[number];

  @IsOptional()
  @Transform(emptyAsUnset)
  @IsIn(BOOLEANS, { message: 'must be true or false' })
  WEBHOOK_ALLOW_PRIVATE_TARGETS?: (typeof BOOLEANS)[number];

  @IsOptional()
  @Transform(emptyAsUnset)
  @Matches(/^[A-Za-z0-9+/]{43}=$/, { message: 'must be 32 bytes in base64 (openssl rand -base64 32)' })
  WEBHOOK_SECRET_KEY?: string;

  @IsOptional()
  @Transform(emptyAsUnset)
  @IsIn(WEBHOOK_DELIVERY_PLACES, { message: 'must be thread or in-process' })
  WEBHOOK_DELIVERY?: (typeof WEBHOOK_DELIVERY_PLACES)[number];

  /** Read by the tracing set-up before the service starts (`src/tracing/register.ts`); checked here too. */
  @IsOptional()
  @Transform(emptyAsUnset)
  @IsUrl({ protocols: ['http', 'https'], require_tld: false, require_protocol: true })
  OTEL_EXPORTER_OTLP_ENDPOINT?: string;
}
