import type { SecretCipher } from './secret-cipher.js';

/**
 * The secrets a message is signed with: the current one, then those rotations replaced that still
 * sign (one that cannot be decrypted is left out); null when the current cannot be decrypted.
 */
export function signingSecrets(
  cipher: SecretCipher,
  current: string,
  retired: readonly string[],
): string[] | null {
  const decrypted = (secret: string): string | null => {
    try {
      return cipher.decrypt(secret);
    } catch {
      return null;
    }
  };
  const signing = decrypted(current);
  if (signing === null) return null;
  return [signing, ...retired.map(decrypted).filter((secret) => secret !== null)];
}
