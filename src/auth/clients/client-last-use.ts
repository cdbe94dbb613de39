import { Injectable } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import { ClientsRepository } from './clients.repository.js';

/** `lastUsedAt` is kept to the minute: what its owner reads it for. */
export const LAST_USE_PRECISION_MS = 60_000;

/**
 * Records when a client last got a token, at most once a minute per client and instance: a
 * client asking for tokens in parallel would otherwise queue on its own row's lock, one commit
 * after the other, for a value nobody reads to the second.
 */
@Injectable()
export class ClientLastUse {
  private readonly written = new LRUCache<string, number>({ max: 10_000 });

  constructor(private readonly clients: ClientsRepository) {}

  async record(clientId: string, now: Date): Promise<void> {
    const last = this.written.get(clientId);
    if (last !== undefined && now.getTime() - last < LAST_USE_PRECISION_MS) return;
    this.written.set(clientId, now.getTime());
    await this.clients.markUsed(clientId, now);
  }
}
