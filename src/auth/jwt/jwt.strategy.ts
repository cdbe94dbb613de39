import { createSecretKey } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import { ExtractJwt, Strategy } from 'passport-jwt';
import { AppConfig } from '../../config/app.config.js';
import type { AuthenticatedUser } from '../authenticated-user.js';
import { UserAccessService } from '../users/user-access.service.js';

export const JWT_ALGORITHM = 'HS256';
/** `exp` is checked with 30 s of leeway for clock skew. */
const CLOCK_TOLERANCE_S = 30;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface AccessTokenClaims {
  sub: string;
  iss: string;
  aud: string;
  iat: number;
  exp: number;
  jti: string;
}

/** Verifies the bearer token (header only, HS256 only) and resolves its subject to a live user. */
@Injectable()
export class JwtStrategy extends PassportStrategy(Strategy) {
  constructor(
    config: AppConfig,
    private readonly access: UserAccessService,
  ) {
    super({
      jwtFromRequest: ExtractJwt.fromAuthHeaderAsBearerToken(),
      // A KeyObject: given a string or Buffer, jsonwebtoken first tries it as a public key and
      // fails, on every request (about 1 ms of CPU each). passport-jwt passes the key through to
      // jsonwebtoken, which accepts a KeyObject; only passport-jwt's typings lag behind.
      secretOrKey: createSecretKey(Buffer.from(config.jwt.secret)) as unknown as Buffer,
      algorithms: [JWT_ALGORITHM],
      issuer: config.jwt.issuer,
      audience: config.jwt.audience,
      ignoreExpiration: false,
      jsonWebTokenOptions: { clockTolerance: CLOCK_TOLERANCE_S },
    });
  }

  /** `false` makes passport answer 401 (the guard shapes it). */
  async validate(claims: Partial<AccessTokenClaims>): Promise<AuthenticatedUser | false> {
    // jsonwebtoken accepts a token without `exp` as never expiring; the contract refuses it.
    if (typeof claims.exp !== 'number' || typeof claims.sub !== 'string' || !UUID.test(claims.sub)) {
      return false;
    }
    return (await this.access.resolve(claims.sub)) ?? false;
  }
}
