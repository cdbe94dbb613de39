import { Injectable } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import type { AuthenticatedUser } from '../../domain/authenticated-user.js';
import type { Scope } from '../../domain/scopes.js';
import { ACCESS_CACHE_OPTIONS } from '../users/user-access.service.js';
import { ClientsRepository } from './clients.repository.js';

/** What a client's token acts as: its creator, with the visibility fixed at creation, and its scopes now. */
export interface ClientAccess {
  user: AuthenticatedUser;
  scopes: ReadonlySet<Scope>;
}

/**
 * Resolves a client's token to what it may see and do, cached as briefly as a user's access: a
 * client deleted or re-scoped, or whose user is disabled or removed, is seen by every instance
 * within that time.
 */
@Injectable()
export class ClientAccessService {
  private readonly cache = new LRUCache<string, ClientAccess | 'revoked'>(ACCESS_CACHE_OPTIONS);

  constructor(private readonly clients: ClientsRepository) {}

  async resolve(clientId: string): Promise<ClientAccess | null> {
    let access = this.cache.get(clientId);
    if (access === undefined) {
      access = await this.load(clientId);
      this.cache.set(clientId, access);
    }
    return access === 'revoked' ? null : access;
  }

  /** Forgets what this instance knows of the client at once (the others within the cache's time). */
  forget(clientId: string): void {
    this.cache.delete(clientId);
  }

  private async load(clientId: string): Promise<ClientAccess | 'revoked'> {
    const principal = await this.clients.principalOf(clientId);
    if (principal === null || !principal.ownerActive) return 'revoked';
    return {
      user: {
        id: principal.ownerId,
        username: principal.ownerUsername,
        role: principal.customerIds === null ? 'staff' : 'customer',
        customerIds: principal.customerIds ?? [],
      },
      scopes: new Set(principal.scopes),
    };
  }
}
