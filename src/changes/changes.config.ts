import { Transform } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from 'class-validator';
import { toInteger } from '../config/environment-values.js';
import type { FeatureConfig } from '../config/feature-config.js';

export class ChangesVariables {
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
}

export interface ChangesConfig {
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
}

export const changesConfig = {
  variables: ChangesVariables,
  section: (vars) => ({
    retentionDays: vars.CHANGES_RETENTION_DAYS ?? 30,
    heartbeatSeconds: vars.CHANGES_HEARTBEAT_S ?? 15,
    streamsPerUser: vars.CHANGES_STREAMS_PER_USER ?? 5,
    stalledReaderMs: 60_000,
  }),
} satisfies FeatureConfig<ChangesVariables, ChangesConfig>;
