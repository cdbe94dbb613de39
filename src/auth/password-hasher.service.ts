import { Injectable, type OnModuleInit } from '@nestjs/common';
import argon2 from 'argon2';

@Injectable()
export class PasswordHasher implements OnModuleInit {
  /** OWASP's argon2id baseline: 19 MiB, 2 passes, 1 lane. */
  protected readonly options: argon2.HashOptions = {
    type: argon2.argon2id,
    memoryCost: 19_456,
    timeCost: 2,
    parallelism: 1,
  };

  /**
   * Verified against when the user does not exist, so that case costs the same hash work. Made
   * at start-up (not at construction: a subclass's cost is not set yet then), so that the first
   * unknown user name costs no more than the others.
   */
  private decoyHash: Promise<string> | undefined;

  async onModuleInit(): Promise<void> {
    await this.decoy();
  }

  hash(password: string): Promise<string> {
    return argon2.hash(password, this.options);
  }

  /** `hash` null means "no such user": the work is done anyway and the answer is false. */
  async verify(hash: string | null, password: string): Promise<boolean> {
    if (hash === null) {
      await argon2.verify(await this.decoy(), password);
      return false;
    }
    try {
      return await argon2.verify(hash, password);
    } catch {
      return false;
    }
  }

  private decoy(): Promise<string> {
    return (this.decoyHash ??= this.hash('decoy password for unknown users'));
  }
}
