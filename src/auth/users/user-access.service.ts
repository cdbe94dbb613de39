import { Injectable } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import type { AuthenticatedUser } from '../../domain/authenticated-user.js';
import { UsersRepository } from './users.repository.js';

/**
 * Well inside the 60 s the API promises: a user disabled, removed or given other customers is seen
 * by every instance within this time, without a database round trip on each request.
 */
export const USER_ACCESS_TTL_MS = 30_000;

/**
 * The caches of who may see what (users, sign-ins, clients), read on every request. The clock is
 * read at each look-up (`ttlResolution: 0`): lru-cache's default keeps it for 1 ms and starts a
 * timer to forget it, a timer a look-up.
 */
export const ACCESS_CACHE_OPTIONS = { max: 10_000, ttl: USER_ACCESS_TTL_MS, ttlResolution: 0 } as const;

type Access = AuthenticatedUser | 'revoked';

/** Resolves a token's subject to a live, active user with its current customers. */
@Injectable()
export class UserAccessService {
  private readonly cache = new LRUCache<string, Access>(ACCESS_CACHE_OPTIONS);

  constructor(private readonly users: UsersRepository) {}

  async resolve(userId: string): Promise<AuthenticatedUser | null> {
    let access = this.cache.get(userId);
    if (access === undefined) {
      access = await this.load(userId);
      this.cache.set(userId, access);
    }
    return access === 'revoked' ? null : access;
  }

  private async load(userId: string): Promise<Access> {
    const user = await this.users.findById(userId);
    if (user === null || !user.active) return 'revoked';
    return { id: user.id, username: user.username, role: user.role, customerIds: user.customerIds };
  }
}
