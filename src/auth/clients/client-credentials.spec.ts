import {
  CLIENT_ID_PATTERN,
  newClientId,
  newClientSecret,
  secretHashOf,
  secretMatches,
} from './client-credentials.js';

describe('client credentials', () => {
  it('makes client ids of the documented shape, each its own', () => {
    const ids = [newClientId(), newClientId()];

    expect(ids.every((id) => CLIENT_ID_PATTERN.test(id))).toBe(true);
    expect(ids[0]).not.toBe(ids[1]);
  });

  it('makes secrets of 256 random bits behind a recognisable prefix', () => {
    const secret = newClientSecret();

    expect(secret).toMatch(/^pls_[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(secret.slice(4), 'base64url')).toHaveLength(32);
  });

  it('matches a secret against its hash only', () => {
    const secret = newClientSecret();
    const hash = secretHashOf(secret);

    expect(hash).not.toContain(secret.slice(4));
    expect(secretMatches(secret, hash)).toBe(true);
    expect(secretMatches(`${secret}x`, hash)).toBe(false);
    expect(secretMatches(secret, secretHashOf(newClientSecret()))).toBe(false);
    expect(secretMatches(secret, null)).toBe(false);
    expect(secretMatches(secret, 'short')).toBe(false);
  });
});
