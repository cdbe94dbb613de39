import { Injectable } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import { EnrichmentCacheStore, type CachedEnrichment } from './enrichment-cache.store.js';

/**
 * Bounds the cache by the size of what it holds rather than by a count: a detail is a few KiB of
 * JSON and a few times that on the heap, so 16 Mi characters of JSON keep the cache to some tens
 * of MiB, well inside the heap `npm start` gives the service (10,000 entries could take ~140 MiB).
 */
export const MAX_CACHED_JSON_CHARS = 16 * 1024 * 1024;

/** In-process store: each instance keeps its own copies; the least recently used go first. */
@Injectable()
export class MemoryEnrichmentCacheStore extends EnrichmentCacheStore {
  private readonly entries = new LRUCache<string, CachedEnrichment>({
    maxSize: MAX_CACHED_JSON_CHARS,
    sizeCalculation: (entry) => JSON.stringify(entry).length,
  });

  get(numero: string): Promise<CachedEnrichment | undefined> {
    return Promise.resolve(this.entries.get(numero));
  }

  set(numero: string, entry: CachedEnrichment, ttlMs: number): Promise<void> {
    if (ttlMs > 0) this.entries.set(numero, entry, { ttl: ttlMs });
    return Promise.resolve();
  }
}
