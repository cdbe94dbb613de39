import { Injectable } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import { EnrichmentCacheStore, type CachedEnrichment } from './enrichment-cache.store.js';

/**
 * Bounds the cache by the size of what it holds rather than by a count: 16 Mi characters of
 * JSON, some thousands of details (10,000 entries could take ~140 MiB of a 256 MiB heap).
 */
export const MAX_CACHED_JSON_CHARS = 16 * 1024 * 1024;

/**
 * In-process store: each instance keeps its own copies; the least recently used go first.
 * Entries are kept as their JSON text, as in Redis: a detail as objects takes about three times
 * its JSON on the heap, and parsing it back on a hit costs some tens of microseconds.
 */
@Injectable()
export class MemoryEnrichmentCacheStore extends EnrichmentCacheStore {
  private readonly entries = new LRUCache<string, string>({
    maxSize: MAX_CACHED_JSON_CHARS,
    sizeCalculation: (json) => json.length,
  });

  get(numero: string): Promise<CachedEnrichment | undefined> {
    const json = this.entries.get(numero);
    return Promise.resolve(json === undefined ? undefined : (JSON.parse(json) as CachedEnrichment));
  }

  set(numero: string, entry: CachedEnrichment, ttlMs: number): Promise<void> {
    if (ttlMs > 0) this.entries.set(numero, JSON.stringify(entry), { ttl: ttlMs });
    return Promise.resolve();
  }
}
