import { Transform } from 'class-transformer';
import { IsInt, IsOptional, IsString, Max, Min, ValidateBy } from 'class-validator';
import { parse as parseConnectionString } from 'pg-connection-string';
import { emptyAsUnset, toInteger } from '../config/environment-values.js';
import type { FeatureConfig } from '../config/feature-config.js';

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

export class DatabaseVariables {
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
}

export interface DatabaseConfig {
  /** `null`: the embedded PGlite in {@link pgliteDir}. */
  url: string | null;
  pgliteDir: string;
  /** Bounds every statement, and every wait for a connection, of a PostgreSQL server. */
  statementTimeoutMs: number;
}

export const databaseConfig = {
  variables: DatabaseVariables,
  section: (vars, { databaseUrl }) => ({
    url: databaseUrl,
    pgliteDir: vars.PGLITE_DIR ?? './.data/pglite',
    statementTimeoutMs: vars.DATABASE_STATEMENT_TIMEOUT_MS ?? 5000,
  }),
} satisfies FeatureConfig<DatabaseVariables, DatabaseConfig>;
