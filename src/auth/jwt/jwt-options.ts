import { createSecretKey } from 'node:crypto';
import type { JwtModuleOptions } from '@nestjs/jwt';
import type { AppConfig } from '../../config/app.config.js';
import { JWT_ALGORITHM } from './jwt.strategy.js';

/** The defaults every token the service signs gets (the access-token header is set per token). */
export function jwtOptionsOf(config: AppConfig): JwtModuleOptions {
  return {
    // A KeyObject: given a string, jsonwebtoken first tries it as a private key, then as a public
    // key, and fails both, on every token it signs (a third of a millisecond of CPU each, most of
    // what issuing a client's token cost).
    secret: createSecretKey(Buffer.from(config.jwt.secret)),
    signOptions: {
      algorithm: JWT_ALGORITHM,
      expiresIn: config.jwt.expiresInSeconds,
      issuer: config.jwt.issuer,
      audience: config.jwt.audience,
    },
  };
}
