import type { JwtModuleOptions } from '@nestjs/jwt';
import type { AppConfig } from '../../config/app.config.js';
import { JWT_ALGORITHM } from './jwt.strategy.js';

/** The defaults every token the service signs gets (the access-token header is set per token). */
export function jwtOptionsOf(config: AppConfig): JwtModuleOptions {
  return {
    secret: config.jwt.secret,
    signOptions: {
      algorithm: JWT_ALGORITHM,
      expiresIn: config.jwt.expiresInSeconds,
      issuer: config.jwt.issuer,
      audience: config.jwt.audience,
    },
  };
}
