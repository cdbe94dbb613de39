import { Transform } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from 'class-validator';
import { toInteger } from '../config/environment-values.js';
import type { FeatureConfig } from '../config/feature-config.js';

export class SyncVariables {
  @IsOptional()
  @Transform(toInteger)
  @Min(0)
  @Max(86400)
  @IsInt()
  SYNC_INTERVAL_S?: number;
}

export interface SyncConfig {
  /** 0: no schedule (`npm run sync` still works). */
  intervalSeconds: number;
}

export const syncConfig = {
  variables: SyncVariables,
  section: (vars) => ({ intervalSeconds: vars.SYNC_INTERVAL_S ?? 60 }),
} satisfies FeatureConfig<SyncVariables, SyncConfig>;
