import { randomBytes } from 'node:crypto';
import { authConfig, type JwtConfig } from '../auth/auth.config.js';
import { changesConfig, type ChangesConfig } from '../changes/changes.config.js';
import { databaseConfig, type DatabaseConfig } from '../database/database.config.js';
import { operationsConfig, type OperationsConfig } from '../operations/operations.config.js';
import { portalConfig, type PortalConfig } from '../portal/portal.config.js';
import { rateLimitConfig, type RateLimitConfig } from '../rate-limit/rate-limit.config.js';
import { redisConfig, type RedisConfig } from '../redis/redis.config.js';
import { syncConfig, type SyncConfig } from '../sync/sync.config.js';
import { tracingConfig, type TracingConfig } from '../tracing/tracing.config.js';
import { webhooksConfig, type WebhooksConfig } from '../webhooks/webhooks.config.js';
import { type ConfigContext, type FeatureConfig, validateVariables } from './feature-config.js';
import { serverConfig, type ServerConfig } from './server.config.js';

/**
 * The service's whole configuration, validated once at start-up. The only reader of
 * `process.env` is {@link loadAppConfig}; everything else injects this class. Each feature
 * declares its own variables and section in its `<feature>.config.ts`; this file only assembles.
 */
export class AppConfig implements ServerConfig {
  nodeEnv!: ServerConfig['nodeEnv'];
  port!: number;
  logLevel!: ServerConfig['logLevel'];
  cors!: ServerConfig['cors'];
  shutdownGraceMs!: number;
  servedOverTls!: boolean;
  trustProxy!: ServerConfig['trustProxy'];
  database!: DatabaseConfig;
  jwt!: JwtConfig;
  operations!: OperationsConfig;
  sync!: SyncConfig;
  redisUrl!: RedisConfig;
  rateLimits!: RateLimitConfig;
  changes!: ChangesConfig;
  webhooks!: WebhooksConfig;
  portal!: PortalConfig;
  tracing!: TracingConfig;
  /** Demo mode: no database URL and not production; the sandbox's data and demo users. */
  demoMode!: boolean;
}

/** Every feature whose variables are validated, whether or not it has a section. */
export const FEATURE_CONFIGS = {
  server: serverConfig,
  database: databaseConfig,
  auth: authConfig,
  operations: operationsConfig,
  sync: syncConfig,
  redis: redisConfig,
  rateLimit: rateLimitConfig,
  changes: changesConfig,
  webhooks: webhooksConfig,
  portal: portalConfig,
  tracing: tracingConfig,
} as const;

type Features = typeof FEATURE_CONFIGS;
type EnvironmentVariables = {
  [Name in keyof Features]: Features[Name] extends FeatureConfig<infer Variables, unknown>
    ? Variables
    : never;
};

export class ConfigurationError extends Error {
  override readonly name = 'ConfigurationError';

  constructor(message: string) {
    super(message);
    // The message names every variable at fault; a stack would only bury it in the log line.
    delete this.stack;
  }
}

/** Validates every feature's variables, reports every problem at once, then maps each to its section. */
export function loadAppConfig(env: NodeJS.ProcessEnv): AppConfig {
  const { variables, problems } = validateEnvironment(env);
  const context = contextOf(variables);
  const features: Record<keyof Features, FeatureConfig<object, unknown>> = FEATURE_CONFIGS;
  for (const name of Object.keys(features) as (keyof Features)[]) {
    problems.push(...(features[name].problems?.(variables[name], context) ?? []));
  }
  if (problems.length > 0) {
    throw new ConfigurationError(`Invalid configuration:\n  ${problems.join('\n  ')}`);
  }

  return Object.assign(new AppConfig(), {
    ...serverConfig.section(variables.server, context),
    database: databaseConfig.section(variables.database, context),
    jwt: authConfig.section(variables.auth, context),
    operations: operationsConfig.section(variables.operations),
    sync: syncConfig.section(variables.sync),
    redisUrl: redisConfig.section(variables.redis),
    rateLimits: rateLimitConfig.section(variables.rateLimit),
    changes: changesConfig.section(variables.changes),
    webhooks: webhooksConfig.section(variables.webhooks, context),
    portal: portalConfig.section(variables.portal, context),
    tracing: tracingConfig.section(variables.tracing),
    demoMode: context.demoMode,
  } satisfies AppConfig);
}

function validateEnvironment(env: NodeJS.ProcessEnv): {
  variables: EnvironmentVariables;
  problems: string[];
} {
  const problems: string[] = [];
  const variables = Object.fromEntries(
    Object.entries(FEATURE_CONFIGS).map(([name, feature]) => {
      const validated = validateVariables<object>(feature.variables, env);
      problems.push(...validated.problems);
      return [name, validated.variables];
    }),
  ) as EnvironmentVariables;
  return { variables, problems };
}

/** The facts several sections depend on: the mode, the database, the JWT secret (generated when unset). */
function contextOf({ server, database, auth }: EnvironmentVariables): ConfigContext {
  const nodeEnv = server.NODE_ENV ?? 'development';
  const databaseUrl = database.DATABASE_URL ?? null;
  return {
    nodeEnv,
    databaseUrl,
    demoMode: databaseUrl === null && nodeEnv !== 'production',
    jwtSecret: auth.JWT_SECRET ?? randomBytes(48).toString('base64url'),
  };
}
