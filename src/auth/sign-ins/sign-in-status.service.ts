import { Injectable } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import { ACCESS_CACHE_OPTIONS } from '../users/user-access.service.js';
import { SignInsRepository } from './sign-ins.repository.js';

/**
 * Whether a sign-in still stands, for the access tokens that name it (`sid`). The database is what
 * every instance shares: each asks it again once the access caches' `ttl` has passed
 * ({@link ACCESS_CACHE_OPTIONS}), so a logout or a reuse revocation reaches every instance's
 * access tokens within that time, and this one's at once.
 */
@Injectable()
export class SignInStatus {
  private readonly ended = new LRUCache<string, boolean>(ACCESS_CACHE_OPTIONS);

  constructor(private readonly signIns: SignInsRepository) {}

  async hasEnded(signInId: string): Promise<boolean> {
    let ended = this.ended.get(signInId);
    if (ended === undefined) {
      ended = await this.signIns.hasEnded(signInId);
      this.ended.set(signInId, ended);
    }
    return ended;
  }

  /** This instance's tokens of the sign-in stop at once. */
  markEnded(signInId: string): void {
    this.ended.set(signInId, true);
  }
}
