import { Injectable } from '@nestjs/common';
import { Counter, Registry } from 'prom-client';

/** What the detail enrichment reports about its cache (optional: absent outside the HTTP app). */
export abstract class EnrichmentMetrics {
  /** Served from the cache within the fresh TTL. */
  abstract cacheHit(): void;
  /** No fresh copy: the operations system is asked. */
  abstract cacheMiss(): void;
  /** The operations system failed and a stale copy was served. */
  abstract staleServed(): void;
}

@Injectable()
export class PrometheusEnrichmentMetrics extends EnrichmentMetrics {
  private readonly hits: Counter;
  private readonly misses: Counter;
  private readonly stale: Counter;

  constructor(registry: Registry) {
    super();
    const counter = (name: string, help: string) => new Counter({ name, help, registers: [registry] });
    this.hits = counter('enrichment_cache_hits_total', 'Process details served from the cache (CACHED)');
    this.misses = counter(
      'enrichment_cache_misses_total',
      'Process details with no fresh cached copy, asked of the operations system',
    );
    this.stale = counter(
      'enrichment_cache_stale_served_total',
      'Process details served STALE because the operations system failed',
    );
  }

  cacheHit(): void {
    this.hits.inc();
  }

  cacheMiss(): void {
    this.misses.inc();
  }

  staleServed(): void {
    this.stale.inc();
  }
}
