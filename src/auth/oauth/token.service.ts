import { Injectable } from '@nestjs/common';
import { Clock } from '../../common/clock.js';
import { AppConfig } from '../../config/app.config.js';
import { SCOPE_NAMES, type Scope } from '../../domain/scopes.js';
import { LoginRateLimiter } from '../../rate-limit/login-rate-limiter.js';
import type { ClientCredentialsRecord } from '../clients/client-application.js';
import { CLIENT_ID_PATTERN, secretMatches } from '../clients/client-credentials.js';
import { ClientLastUse } from '../clients/client-last-use.js';
import { ClientsRepository } from '../clients/clients.repository.js';
import { AccessTokenIssuer } from '../jwt/access-token-issuer.js';
import type { TokenResponseDto } from './dto/token.response.dto.js';
import { oauthError } from './oauth-errors.js';
import { BASIC_CHALLENGE, type TokenRequest } from './token-request.js';

/** Issues access tokens to client applications (RFC 6749, section 4.4). */
@Injectable()
export class TokenService {
  constructor(
    private readonly clients: ClientsRepository,
    private readonly lastUse: ClientLastUse,
    private readonly issuer: AccessTokenIssuer,
    private readonly limiter: LoginRateLimiter,
    private readonly config: AppConfig,
    private readonly clock: Clock,
  ) {}

  /**
   * Authenticates the client and issues a token with the scopes asked for, or all of the client's.
   * A failed authentication counts toward the failed-login limits, by client id and address. The
   * secret is checked before the attempt is counted (a login counts first): 256 random bits cannot
   * be guessed however many checks run at once, and a valid client's concurrent requests then hold
   * a count only while the limiter answers, not while the database does, so they never push each
   * other over the limit. Once a limit is reached every attempt gets the same 429, right or wrong.
   */
  async issue(request: TokenRequest, clientAddress: string | undefined): Promise<TokenResponseDto> {
    const client = CLIENT_ID_PATTERN.test(request.clientId)
      ? await this.clients.credentialsOf(request.clientId)
      : null;
    const authenticated =
      client !== null && client.ownerActive && this.secretIsValid(client, request.clientSecret);
    const attempt = await this.limiter.beginForClient(request.clientId, clientAddress);
    if (!authenticated) {
      throw oauthError(
        'invalid_client',
        'The client id or secret is wrong, or the client is no longer allowed',
        request.method === 'client_secret_basic' ? BASIC_CHALLENGE : undefined,
      );
    }
    await attempt.succeeded();
    const scopes = grantedScopes(client.scopes, request.scopes);
    const accessToken = await this.issuer.forClient(client.clientId, scopes);
    await this.lastUse.record(client.clientId, this.clock.now());
    return {
      access_token: accessToken,
      token_type: 'Bearer',
      expires_in: this.config.jwt.expiresInSeconds,
      scope: scopes.join(' '),
    };
  }

  /** The current secret, or the one it replaced while that still works. */
  private secretIsValid(client: ClientCredentialsRecord, secret: string): boolean {
    if (secretMatches(secret, client.secretHash)) return true;
    const previousValid =
      client.previousSecretExpiresAt !== null && client.previousSecretExpiresAt > this.clock.now();
    return previousValid && secretMatches(secret, client.previousSecretHash);
  }
}

/** The scopes asked for, each one the client's (else `invalid_scope`), in the canonical order. */
function grantedScopes(clientScopes: readonly Scope[], asked: readonly string[] | null): Scope[] {
  if (asked === null) return SCOPE_NAMES.filter((scope) => clientScopes.includes(scope));
  const refused = asked.filter((scope) => !(clientScopes as readonly string[]).includes(scope));
  if (refused.length > 0) {
    throw oauthError('invalid_scope', `This client may not ask for: ${[...new Set(refused)].join(' ')}`);
  }
  return SCOPE_NAMES.filter((scope) => asked.includes(scope));
}
