import type { Request } from 'express';
import { bearerTokenOf } from './bearer-token.js';

/**
 * When the request's bearer token expires, in epoch milliseconds. Only for requests the global
 * guard let through: their token is verified and carries an `exp` (the strategy demands one).
 */
export function tokenExpiresAtMs(request: Request): number {
  const token = bearerTokenOf(request) ?? '';
  const payload = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as {
    exp?: unknown;
  };
  if (typeof payload.exp !== 'number') throw new Error('a verified token without exp');
  return payload.exp * 1000;
}
