import { jest } from '@jest/globals';
import argon2 from 'argon2';
import { PasswordHasher } from './password-hasher.service.js';

/** `$argon2id$v=19$m=19456,p=1,t=2$salt$hash` → its algorithm and parameters, in any order. */
function describeHash(hash: string) {
  const [, algorithm, version, parameters, salt, digest] = hash.split('$');
  return {
    algorithm,
    version,
    parameters: Object.fromEntries((parameters ?? '').split(',').map((pair) => pair.split('='))),
    salted: (salt ?? '').length > 0 && (digest ?? '').length > 0,
  };
}

const OWASP_ARGON2ID = {
  algorithm: 'argon2id',
  version: 'v=19',
  parameters: { m: '19456', t: '2', p: '1' },
  salted: true,
};

describe(PasswordHasher.name, () => {
  const sut = new PasswordHasher();

  afterEach(() => {
    jest.restoreAllMocks();
  });

  it('hashes with argon2id at the OWASP baseline, salted', async () => {
    const hash = await sut.hash('acme-demo-2026');

    expect(describeHash(hash)).toEqual(OWASP_ARGON2ID);
    expect(await sut.hash('acme-demo-2026')).not.toBe(hash);
  });

  it('verifies the right password and refuses a wrong one', async () => {
    const hash = await sut.hash('acme-demo-2026');

    expect(await sut.verify(hash, 'acme-demo-2026')).toBe(true);
    expect(await sut.verify(hash, 'acme-demo-2027')).toBe(false);
    expect(await sut.verify(hash, '')).toBe(false);
  });

  it('answers false for no user, after doing the same argon2 work', async () => {
    const verify = jest.spyOn(argon2, 'verify');

    expect(await sut.verify(null, 'decoy password for unknown users')).toBe(false);
    expect(verify).toHaveBeenCalledTimes(1);
    expect(describeHash(verify.mock.calls[0]![0])).toEqual(OWASP_ARGON2ID);
  });

  it('makes its decoy hash at start-up, so the first unknown user costs no extra hash', async () => {
    const started = new PasswordHasher();
    await started.onModuleInit();
    const hash = jest.spyOn(argon2, 'hash');

    expect(await started.verify(null, 'anything')).toBe(false);
    expect(hash).not.toHaveBeenCalled();
  });

  it('answers false for a stored hash that is not an argon2 hash', async () => {
    expect(await sut.verify('not-a-hash', 'whatever')).toBe(false);
  });
});
