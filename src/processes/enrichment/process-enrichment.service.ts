import { Injectable, Logger, Optional } from '@nestjs/common';
import { Clock } from '../../common/clock.js';
import { toUtcInstant } from '../../common/instant.js';
import { AppConfig } from '../../config/app.config.js';
import { EnrichmentMetrics } from './enrichment.metrics.js';
import { OperationsGateway, OperationsUnavailableError } from '../../operations/operations.gateway.js';
import type { OperationsProcessDetail } from '../../operations/operations.types.js';
import type { EnrichmentStatus } from '../dto/process-detail.response.dto.js';
import { EnrichmentCacheStore, type CachedEnrichment } from './enrichment-cache.store.js';

export interface Enrichment {
  detail: OperationsProcessDetail;
  status: EnrichmentStatus;
  fetchedAt: string;
}

/**
 * The live part of a process detail, from the operations system through a cache: served from
 * the cache within the fresh TTL, fetched otherwise (concurrent fetches of one process share a
 * single upstream call), and served stale within the stale TTL when the upstream fails.
 */
@Injectable()
export class ProcessEnrichmentService {
  private readonly logger = new Logger(ProcessEnrichmentService.name);
  private readonly inFlight = new Map<string, Promise<CachedEnrichment | null>>();

  constructor(
    private readonly gateway: OperationsGateway,
    private readonly cache: EnrichmentCacheStore,
    private readonly config: AppConfig,
    private readonly clock: Clock,
    @Optional() private readonly metrics?: EnrichmentMetrics,
  ) {}

  /**
   * `numero` must be the stored (canonical) numero of a process the caller may see.
   * Returns null when the operations system does not know the process.
   * @throws OperationsUnavailableError when it failed and no copy young enough is cached.
   */
  async enrich(numero: string): Promise<Enrichment | null> {
    const cached = await this.cache.get(numero);
    const ageMs = cached === undefined ? Infinity : this.clock.now().getTime() - Date.parse(cached.fetchedAt);
    if (cached !== undefined && ageMs < this.config.operations.cacheTtlSeconds * 1000) {
      this.metrics?.cacheHit();
      return { ...cached, status: 'CACHED' };
    }
    this.metrics?.cacheMiss();
    try {
      const fetched = await this.fetchOnce(numero);
      return fetched === null ? null : { ...fetched, status: 'FRESH' };
    } catch (error) {
      if (!(error instanceof OperationsUnavailableError)) throw error;
      if (cached !== undefined && ageMs < this.config.operations.staleTtlSeconds * 1000) {
        this.logger.warn(`Serving a stale detail of ${numero}: ${error.message}`);
        this.metrics?.staleServed();
        return { ...cached, status: 'STALE' };
      }
      throw error;
    }
  }

  private fetchOnce(numero: string): Promise<CachedEnrichment | null> {
    let pending = this.inFlight.get(numero);
    if (pending === undefined) {
      pending = this.fetchAndStore(numero).finally(() => this.inFlight.delete(numero));
      this.inFlight.set(numero, pending);
    }
    return pending;
  }

  private async fetchAndStore(numero: string): Promise<CachedEnrichment | null> {
    const detail = await this.gateway.getProcessDetail(numero);
    if (detail === null) return null;
    const entry = { detail, fetchedAt: toUtcInstant(this.clock.now()) };
    const { cacheTtlSeconds, staleTtlSeconds } = this.config.operations;
    await this.cache.set(numero, entry, Math.max(cacheTtlSeconds, staleTtlSeconds) * 1000);
    return entry;
  }
}
