import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** `plc_` and 128 random bits: a client id is an identifier, not a secret, but is not guessable. */
export const CLIENT_ID_PATTERN = /^plc_[A-Za-z0-9_-]{22}$/;

export function newClientId(): string {
  return `plc_${randomBytes(16).toString('base64url')}`;
}

/** `pls_` (so secret scanners can spot a leaked one) and 256 random bits. */
export function newClientSecret(): string {
  return `pls_${randomBytes(32).toString('base64url')}`;
}

/**
 * Secrets are stored as their SHA-256 only. A password needs a slow hash (argon2) because people
 * choose guessable ones; a secret of 256 random bits cannot be guessed however fast each guess is,
 * so a slow hash would only cost every token request tens of milliseconds of CPU for nothing.
 */
export function secretHashOf(secret: string): string {
  return createHash('sha256').update(secret).digest('base64url');
}

/** Whether `secret` hashes to `hash`, compared in constant time. */
export function secretMatches(secret: string, hash: string | null): boolean {
  if (hash === null) return false;
  const expected = Buffer.from(hash, 'base64url');
  const actual = createHash('sha256').update(secret).digest();
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}
