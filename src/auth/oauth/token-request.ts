import type { Request } from 'express';
import { REALM } from '../jwt/unauthorized.js';
import { oauthError } from './oauth-errors.js';

export const CLIENT_CREDENTIALS_GRANT = 'client_credentials';

/** How the client authenticated (RFC 6749, section 2.3.1). */
export type ClientAuthMethod = 'client_secret_basic' | 'client_secret_post';

/** A well-formed client-credentials token request, its client not yet authenticated. */
export interface TokenRequest {
  clientId: string;
  clientSecret: string;
  method: ClientAuthMethod;
  /** The scopes asked for (`scope`), or null for the client's own. */
  scopes: string[] | null;
}

/** The challenge of a 401 to a client that authenticated with HTTP Basic. */
export const BASIC_CHALLENGE = { 'WWW-Authenticate': `Basic realm="${REALM}"` };

/**
 * Reads a token request (RFC 6749, section 4.4.2): a form body with `grant_type=client_credentials`
 * and an optional `scope`, the client authenticating with HTTP Basic or with `client_id` and
 * `client_secret` in the form, never both.
 * @throws ProblemException an RFC 6749 error object otherwise.
 */
export function readTokenRequest(request: Request): TokenRequest {
  if (!request.is('application/x-www-form-urlencoded')) {
    throw oauthError('invalid_request', 'The body must be application/x-www-form-urlencoded');
  }
  const form = (request.body ?? {}) as Record<string, unknown>;
  const repeated = Object.keys(form).filter((name) => typeof form[name] !== 'string');
  if (repeated.length > 0) {
    throw oauthError('invalid_request', `Each parameter may appear once: ${repeated.join(', ')} repeated`);
  }
  const parameter = (name: string): string | undefined => form[name] as string | undefined;
  const grantType = parameter('grant_type');
  if (grantType === undefined) throw oauthError('invalid_request', 'grant_type is required');
  if (grantType !== CLIENT_CREDENTIALS_GRANT) {
    throw oauthError('unsupported_grant_type', 'Only grant_type=client_credentials is supported');
  }
  const scope = parameter('scope');
  const scopes = scope === undefined || scope === '' ? null : scope.split(' ');
  if (scopes?.includes('') === true) {
    throw oauthError('invalid_scope', 'scope must be scope names separated by single spaces');
  }
  return { ...clientCredentialsOf(request, parameter('client_id'), parameter('client_secret')), scopes };
}

function clientCredentialsOf(
  request: Request,
  formClientId: string | undefined,
  formClientSecret: string | undefined,
): Omit<TokenRequest, 'scopes'> {
  const authorization = request.headers.authorization;
  if (authorization === undefined) {
    if (formClientId === undefined || formClientSecret === undefined) {
      throw oauthError('invalid_client', 'Authenticate with HTTP Basic, or with client_id and client_secret');
    }
    return { clientId: formClientId, clientSecret: formClientSecret, method: 'client_secret_post' };
  }
  const basic = /^Basic ([A-Za-z0-9+/]+={0,2})$/i.exec(authorization);
  const decoded = basic === null ? null : decodeBasic(basic[1]!);
  if (decoded === null) {
    throw oauthError(
      'invalid_client',
      'The Authorization header is not HTTP Basic credentials',
      BASIC_CHALLENGE,
    );
  }
  if (formClientSecret !== undefined || (formClientId !== undefined && formClientId !== decoded.clientId)) {
    throw oauthError('invalid_request', 'Authenticate one way only: HTTP Basic or client_secret in the form');
  }
  return { ...decoded, method: 'client_secret_basic' };
}

/** `client_id:client_secret`, each form-urlencoded (RFC 6749, section 2.3.1), base64 encoded. */
function decodeBasic(encoded: string): { clientId: string; clientSecret: string } | null {
  const text = Buffer.from(encoded, 'base64').toString('utf8');
  const colon = text.indexOf(':');
  if (colon < 0) return null;
  try {
    const decode = (part: string) => decodeURIComponent(part.replace(/\+/g, ' '));
    return { clientId: decode(text.slice(0, colon)), clientSecret: decode(text.slice(colon + 1)) };
  } catch {
    return null;
  }
}
