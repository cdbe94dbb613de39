import { createSecretKey } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import { Strategy } from 'passport-jwt';
import { AppConfig } from '../../config/app.config.js';
import type { AuthenticatedUser } from '../../domain/authenticated-user.js';
import type { GrantedRequest } from '../access/access-grant.js';
import { AccessResolver } from '../access/access-resolver.js';
import { bearerTokenOf } from './bearer-token.js';
import { tokenSubjectOf, type AccessTokenClaims } from './token-subject.js';
import { unauthorized } from './unauthorized.js';
import { VerifiedTokens } from './verified-tokens.js';

export const JWT_ALGORITHM = 'HS256';
/**
 * The JOSE header `typ` of every access token (RFC 9068, section 2.1). Nothing in the claims tells
 * an access token from another token the same key signs (a refresh token, say); this header does,
 * and the strategy refuses a token without it.
 */
export const ACCESS_TOKEN_TYPE = 'at+jwt';
/** RFC 9068, section 4: `at+jwt` or `application/at+jwt`, compared case-insensitively (RFC 7515). */
const ACCEPTED_TOKEN_TYPES: ReadonlySet<string> = new Set([
  ACCESS_TOKEN_TYPE,
  `application/${ACCESS_TOKEN_TYPE}`,
]);
/** What jsonwebtoken hands over with `complete: true`: the verified token's header and claims. */
export interface VerifiedToken {
  header: { typ?: unknown };
  payload: Partial<AccessTokenClaims> | string;
}

/**
 * Verifies the bearer token (Authorization header only, HS256 only, `typ: at+jwt` only, `exp` with
 * no leeway) and resolves its subject (a user's sign-in, or a client application) to a live user and
 * what the token may do. A token that passes is remembered in {@link VerifiedTokens}, which spares
 * its later requests this verification.
 */
@Injectable()
export class JwtStrategy extends PassportStrategy(Strategy) {
  constructor(
    config: AppConfig,
    private readonly access: AccessResolver,
    private readonly verifiedTokens: VerifiedTokens,
  ) {
    super({
      jwtFromRequest: bearerTokenOf,
      // A KeyObject: given a string or Buffer, jsonwebtoken first tries it as a public key and
      // fails, on every request (about 1 ms of CPU each). passport-jwt passes the key through to
      // jsonwebtoken, which accepts a KeyObject; only passport-jwt's typings lag behind.
      secretOrKey: createSecretKey(Buffer.from(config.jwt.secret)) as unknown as Buffer,
      algorithms: [JWT_ALGORITHM],
      issuer: config.jwt.issuer,
      audience: config.jwt.audience,
      ignoreExpiration: false,
      // `complete`: the header too, for its `typ`.
      // No clock tolerance: the service checks only tokens it issued itself, so the REST routes and
      // the stream agree to the second.
      jsonWebTokenOptions: { complete: true },
      passReqToCallback: true,
    });
  }

  /** `false` makes passport answer 401 (the guard shapes it); a revoked token is refused as such. */
  async validate(
    request: GrantedRequest,
    { header, payload: claims }: VerifiedToken,
  ): Promise<AuthenticatedUser | false> {
    if (typeof header.typ !== 'string' || !ACCEPTED_TOKEN_TYPES.has(header.typ.toLowerCase())) return false;
    // jsonwebtoken accepts a token without `exp` as never expiring; tokenSubjectOf refuses it.
    const subject = tokenSubjectOf(claims);
    if (subject === null) return false;
    this.verifiedTokens.remember(bearerTokenOf(request) ?? '', subject, (claims as AccessTokenClaims).exp);
    const access = await this.access.resolve(subject);
    if (access === null) throw unauthorized('revoked');
    request.accessGrant = access.grant;
    return access.user;
  }
}
