import { Transform } from 'class-transformer';
import { IsInt, IsOptional, IsString, IsUrl, Matches, Max, Min } from 'class-validator';
import { emptyAsUnset, toInteger } from '../config/environment-values.js';
import type { FeatureConfig } from '../config/feature-config.js';

export class OperationsVariables {
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
}

export interface OperationsConfig {
  /** Required wherever the operations system is read; `npm start` sets it to its sandbox in demo mode. */
  baseUrl: string | null;
  apiKey: string | null;
  /** Verifies change notifications from the operations system; `null`: the route is off. */
  notifySecret: string | null;
  timeoutMs: number;
  cacheTtlSeconds: number;
  staleTtlSeconds: number;
}

export const operationsConfig = {
  variables: OperationsVariables,
  section: (vars) => ({
    baseUrl: vars.OPERATIONS_BASE_URL ?? null,
    apiKey: vars.OPERATIONS_API_KEY ?? null,
    notifySecret: vars.OPERATIONS_NOTIFY_SECRET ?? null,
    timeoutMs: vars.OPERATIONS_TIMEOUT_MS ?? 2000,
    cacheTtlSeconds: vars.OPERATIONS_CACHE_TTL_S ?? 60,
    staleTtlSeconds: vars.OPERATIONS_STALE_TTL_S ?? 86400,
  }),
} satisfies FeatureConfig<OperationsVariables, OperationsConfig>;
