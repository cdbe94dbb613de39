import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { JwtService } from '@nestjs/jwt';
import type { Scope } from '../../domain/scopes.js';
import { ACCESS_TOKEN_TYPE, JWT_ALGORITHM } from './jwt.strategy.js';
import type { AccessTokenClaims } from './token-subject.js';

type OwnClaims = Pick<AccessTokenClaims, 'sub' | 'sid' | 'client_id' | 'scope'>;

/** Signs the service's access tokens (RFC 9068); `iss`, `aud`, `iat` and `exp` come from the JWT module. */
@Injectable()
export class AccessTokenIssuer {
  constructor(private readonly jwt: JwtService) {}

  /** A user's token, naming the sign-in it belongs to. */
  forUser(userId: string, signInId: string): Promise<string> {
    return this.sign({ sub: userId, sid: signInId });
  }

  /** A client application's token: its client id is the subject, with the scopes granted. */
  forClient(clientId: string, scopes: readonly Scope[]): Promise<string> {
    return this.sign({ sub: clientId, client_id: clientId, scope: scopes.join(' ') });
  }

  private sign(claims: OwnClaims): Promise<string> {
    // The header says what kind of token this is: set here, not as a JwtService default, so that
    // no other token the same service signs could pass for an access token.
    return this.jwt.signAsync(claims, {
      jwtid: randomUUID(),
      header: { alg: JWT_ALGORITHM, typ: ACCESS_TOKEN_TYPE },
    });
  }
}
