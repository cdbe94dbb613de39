import { Transform } from 'class-transformer';
import { IsOptional, Matches } from 'class-validator';
import { emptyAsUnset } from '../config/environment-values.js';
import type { FeatureConfig } from '../config/feature-config.js';

export class RedisVariables {
  @IsOptional()
  @Transform(emptyAsUnset)
  @Matches(/^rediss?:\/\/\S+$/, { message: 'must be a redis:// or rediss:// URL' })
  REDIS_URL?: string;
}

/** The Redis every instance shares; `null`: in-memory stores, per instance. */
export type RedisConfig = string | null;

export const redisConfig = {
  variables: RedisVariables,
  section: (vars) => vars.REDIS_URL ?? null,
} satisfies FeatureConfig<RedisVariables, RedisConfig>;
