import { Transform } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from 'class-validator';
import { toInteger } from '../config/environment-values.js';
import type { FeatureConfig } from '../config/feature-config.js';

export class RateLimitVariables {
  @IsOptional()
  @Transform(toInteger)
  @Min(1)
  @Max(1_000_000)
  @IsInt()
  RATE_LIMIT_PER_USER_PER_MINUTE?: number;
}

export interface RateLimitConfig {
  perUserPerMinute: number;
}

export const rateLimitConfig = {
  variables: RateLimitVariables,
  section: (vars) => ({ perUserPerMinute: vars.RATE_LIMIT_PER_USER_PER_MINUTE ?? 600 }),
} satisfies FeatureConfig<RateLimitVariables, RateLimitConfig>;
