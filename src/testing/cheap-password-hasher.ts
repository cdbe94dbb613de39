import argon2 from 'argon2';
import { PasswordHasher } from '../auth/password-hasher.service.js';

/**
 * Argon2id at its smallest cost (1 MiB, 1 pass: under a millisecond, against about 40 at the
 * production cost). Suites that boot the app log in hundreds of times; the production cost has a
 * unit test of its own, and the black-box suite runs it.
 */
export class CheapPasswordHasher extends PasswordHasher {
  protected override readonly options: argon2.HashOptions = {
    type: argon2.argon2id,
    memoryCost: 1024,
    timeCost: 1,
    parallelism: 1,
  };
}
