import { isScope, type Scope } from '../../domain/scopes.js';
import { CLIENT_ID_PATTERN } from '../clients/client-credentials.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The claims of an access token this service signs (RFC 9068). */
export interface AccessTokenClaims {
  sub: string;
  iss: string;
  aud: string;
  iat: number;
  exp: number;
  jti: string;
  /** A user's token: the sign-in it belongs to. */
  sid?: string;
  /** A client's token: its client id (also its `sub`) and the scopes granted, space-separated. */
  client_id?: string;
  scope?: string;
}

/** Whom a verified access token speaks for. */
export type TokenSubject =
  | { kind: 'user'; userId: string; signInId: string | null }
  | { kind: 'client'; clientId: string; scopes: readonly Scope[] };

/**
 * The subject of a token whose signature, issuer, audience and expiry were checked, or null when its
 * claims are not those of an access token of ours. A token without `sid` (issued before sign-ins were
 * named in it) is still a user's token until it expires.
 */
export function tokenSubjectOf(claims: Partial<AccessTokenClaims> | string): TokenSubject | null {
  if (typeof claims !== 'object' || typeof claims.exp !== 'number' || typeof claims.sub !== 'string')
    return null;
  if (claims.client_id !== undefined) {
    if (claims.client_id !== claims.sub || !CLIENT_ID_PATTERN.test(claims.sub)) return null;
    if (typeof claims.scope !== 'string') return null;
    const scopes = claims.scope.split(' ');
    if (!scopes.every(isScope)) return null;
    return { kind: 'client', clientId: claims.sub, scopes };
  }
  if (!UUID.test(claims.sub)) return null;
  if (claims.sid !== undefined && (typeof claims.sid !== 'string' || !UUID.test(claims.sid))) return null;
  return { kind: 'user', userId: claims.sub, signInId: claims.sid ?? null };
}
