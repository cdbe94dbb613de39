import { Injectable } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import { EnrichmentCacheStore, type CachedEnrichment } from './enrichment-cache.store.js';

/** Bounds memory: a detail is a few KiB, so this stays within tens of MiB. */
const MAX_ENTRIES = 10_000;

/** In-process store: each instance keeps its own copies. */
@Injectable()
export class MemoryEnrichmentCacheStore extends EnrichmentCacheStore {
  private readonly entries = new LRUCache<string, CachedEnrichment>({ max: MAX_ENTRIES });

  get(numero: string): Promise<CachedEnrichment | undefined> {
    return Promise.resolve(this.entries.get(numero));
  }

  set(numero: string, entry: CachedEnrichment, ttlMs: number): Promise<void> {
    if (ttlMs > 0) this.entries.set(numero, entry, { ttl: ttlMs });
    return Promise.resolve();
  }
}
