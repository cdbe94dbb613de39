import { Transform } from 'class-transformer';
import { IsInt, IsOptional, IsString, Max, Min, MinLength } from 'class-validator';
import { emptyAsUnset, toInteger } from '../config/environment-values.js';
import type { FeatureConfig } from '../config/feature-config.js';

export class AuthVariables {
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
}

export interface JwtConfig {
  secret: string;
  /** True when no secret was configured and a random one was made (tokens die with the process). */
  secretGenerated: boolean;
  expiresInSeconds: number;
  /** The longest a sign-in lasts from its login, however often it is refreshed. */
  refreshExpiresInSeconds: number;
  issuer: string;
  audience: string;
}

export const authConfig = {
  variables: AuthVariables,
  problems: (vars, { nodeEnv }) =>
    nodeEnv === 'production' && vars.JWT_SECRET === undefined
      ? ['JWT_SECRET: is required in production (at least 32 bytes)']
      : [],
  section: (vars, { jwtSecret }) => ({
    secret: jwtSecret,
    secretGenerated: vars.JWT_SECRET === undefined,
    expiresInSeconds: vars.JWT_EXPIRES_IN ?? 900,
    refreshExpiresInSeconds: vars.JWT_REFRESH_EXPIRES_IN ?? 604800,
    issuer: vars.JWT_ISSUER ?? 'process-lookup',
    audience: vars.JWT_AUDIENCE ?? 'process-lookup-api',
  }),
} satisfies FeatureConfig<AuthVariables, JwtConfig>;
