import { randomBytes } from 'node:crypto';
import { loadAppConfig } from '../../config/app.config.js';
import { SecretCipher } from './secret-cipher.js';

const cipherWith = (key: string) => new SecretCipher(loadAppConfig({ WEBHOOK_SECRET_KEY: key }));

describe(SecretCipher.name, () => {
  const key = randomBytes(32).toString('base64');

  it('opens what it sealed, each sealing different', () => {
    const sut = cipherWith(key);
    const sealed = [sut.encrypt('whsec_abc'), sut.encrypt('whsec_abc')];

    expect(sealed[0]).not.toBe(sealed[1]);
    expect(sealed.map((value) => sut.decrypt(value))).toEqual(['whsec_abc', 'whsec_abc']);
    expect(sealed[0]).not.toContain('abc');
  });

  it('refuses a value sealed under another key, or tampered with', () => {
    const sealed = cipherWith(key).encrypt('whsec_abc');
    // The last character may carry unused bits; the one before it is all ciphertext.
    const tampered = `${sealed.slice(0, -2)}${sealed.at(-2) === 'A' ? 'B' : 'A'}${sealed.slice(-1)}`;

    expect(() => cipherWith(randomBytes(32).toString('base64')).decrypt(sealed)).toThrow();
    expect(() => cipherWith(key).decrypt(tampered)).toThrow();
    expect(() => cipherWith(key).decrypt('whsec_abc')).toThrow('not an encrypted webhook secret');
  });

  it('derives the same key from the same JWT secret when none is configured', () => {
    const jwt = { JWT_SECRET: 'y'.repeat(40) };
    const sealed = new SecretCipher(loadAppConfig(jwt)).encrypt('whsec_abc');

    expect(new SecretCipher(loadAppConfig(jwt)).decrypt(sealed)).toBe('whsec_abc');
  });
});
