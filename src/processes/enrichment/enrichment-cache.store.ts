import type { OperationsProcessDetail } from '../../operations/operations.types.js';

export interface CachedEnrichment {
  detail: OperationsProcessDetail;
  /** When the operations system answered (ISO 8601). */
  fetchedAt: string;
}

/**
 * Where fetched details are kept for the fresh and stale windows. Injectable so that several
 * instances can share one store.
 */
export abstract class EnrichmentCacheStore {
  abstract get(numero: string): Promise<CachedEnrichment | undefined>;
  /** Keeps the entry for `ttlMs` (the stale window: the longest it can still be served). */
  abstract set(numero: string, entry: CachedEnrichment, ttlMs: number): Promise<void>;
}
