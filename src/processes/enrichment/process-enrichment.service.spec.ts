import { jest } from '@jest/globals';
import { Logger } from '@nestjs/common';
import { anOperationsDetail, anOperationsProcess } from '../../testing/operations-process.factory.js';
import { FakeClock } from '../../testing/fake-clock.js';
import { FakeOperationsGateway } from '../../testing/fake-operations.gateway.js';
import type { AppConfig } from '../../config/app.config.js';
import type { EnrichmentMetrics } from './enrichment.metrics.js';
import { OperationsUnavailableError } from '../../operations/operations.gateway.js';
import type { OperationsProcessDetail } from '../../operations/operations.types.js';
import { EnrichmentCacheStore, type CachedEnrichment } from './enrichment-cache.store.js';
import { ProcessEnrichmentService } from './process-enrichment.service.js';

const FRESH_TTL_S = 60;
const STALE_TTL_S = 600;
const NUMERO = 'IMP-2026-0001';

/** A store without expiry of its own: how old an entry is, only the service and the clock say. */
class MapEnrichmentCacheStore extends EnrichmentCacheStore {
  readonly entries = new Map<string, CachedEnrichment>();
  readonly writes: Array<{ numero: string; entry: CachedEnrichment; ttlMs: number }> = [];

  get(numero: string): Promise<CachedEnrichment | undefined> {
    return Promise.resolve(structuredClone(this.entries.get(numero)));
  }

  set(numero: string, entry: CachedEnrichment, ttlMs: number): Promise<void> {
    this.writes.push({ numero, entry, ttlMs });
    this.entries.set(numero, structuredClone(entry));
    return Promise.resolve();
  }
}

/** Lets queued promise reactions run, so concurrent calls all reach the gateway. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe(ProcessEnrichmentService.name, () => {
  const detail: OperationsProcessDetail = anOperationsDetail(anOperationsProcess({ numero: NUMERO }));
  let clock: FakeClock;
  let gateway: FakeOperationsGateway;
  let cache: MapEnrichmentCacheStore;
  let metrics: { [K in keyof EnrichmentMetrics]: jest.Mock<() => void> };
  let warned: jest.Spied<Logger['warn']>;
  let sut: ProcessEnrichmentService;

  beforeEach(() => {
    warned = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => {});
    clock = new FakeClock(new Date('2026-03-14T12:00:00.000Z'));
    gateway = new FakeOperationsGateway();
    gateway.details.set(NUMERO, structuredClone(detail));
    cache = new MapEnrichmentCacheStore();
    metrics = { cacheHit: jest.fn(), cacheMiss: jest.fn(), staleServed: jest.fn() };
    sut = new ProcessEnrichmentService(
      gateway,
      cache,
      { operations: { cacheTtlSeconds: FRESH_TTL_S, staleTtlSeconds: STALE_TTL_S } } as AppConfig,
      clock,
      metrics,
    );
  });

  afterEach(() => {
    warned.mockRestore();
  });

  /** A copy fetched `ageS` seconds ago, holding `cachedDetail`. */
  function cachedAgo(ageS: number, cachedDetail: OperationsProcessDetail = detail): string {
    const fetchedAt = new Date(clock.now().getTime() - ageS * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
    cache.entries.set(NUMERO, { detail: structuredClone(cachedDetail), fetchedAt });
    return fetchedAt;
  }

  const olderDetail = { ...detail, parties: [] };

  describe('with nothing cached', () => {
    it('asks the operations system and answers FRESH, stamped with the time of the answer', async () => {
      const result = await sut.enrich(NUMERO);

      expect(result).toEqual({ detail, status: 'FRESH', fetchedAt: '2026-03-14T12:00:00Z' });
      expect(gateway.detailCalls).toEqual([NUMERO]);
      expect(metrics.cacheMiss).toHaveBeenCalledTimes(1);
      expect(metrics.cacheHit).not.toHaveBeenCalled();
    });

    it('keeps what it fetched for the longer of the two windows', async () => {
      await sut.enrich(NUMERO);

      expect(cache.writes).toEqual([
        { numero: NUMERO, entry: { detail, fetchedAt: '2026-03-14T12:00:00Z' }, ttlMs: STALE_TTL_S * 1000 },
      ]);
    });

    it('answers null, and caches nothing, when the operations system does not know the process', async () => {
      expect(await sut.enrich('IMP-2026-9999')).toBeNull();
      expect(gateway.detailCalls).toEqual(['IMP-2026-9999']);
      expect(cache.writes).toEqual([]);
    });

    it('throws OperationsUnavailableError (a 503 to the client) when the operations system fails', async () => {
      gateway.failing = true;

      await expect(sut.enrich(NUMERO)).rejects.toBeInstanceOf(OperationsUnavailableError);
      expect(cache.writes).toEqual([]);
    });
  });

  describe('with a copy younger than the fresh TTL', () => {
    it('answers CACHED with the time it was fetched, without asking the operations system', async () => {
      const fetchedAt = cachedAgo(FRESH_TTL_S - 1, olderDetail);

      const result = await sut.enrich(NUMERO);

      expect(result).toEqual({ detail: olderDetail, status: 'CACHED', fetchedAt });
      expect(gateway.detailCalls).toEqual([]);
      expect(metrics.cacheHit).toHaveBeenCalledTimes(1);
      expect(metrics.cacheMiss).not.toHaveBeenCalled();
    });

    it('answers CACHED on the next call after a fetch, until the fresh TTL has passed', async () => {
      await sut.enrich(NUMERO);
      clock.advance(FRESH_TTL_S * 1000 - 1000);

      expect((await sut.enrich(NUMERO))?.status).toBe('CACHED');
      clock.advance(1000);
      expect((await sut.enrich(NUMERO))?.status).toBe('FRESH');
      expect(gateway.detailCalls).toEqual([NUMERO, NUMERO]);
    });
  });

  describe('with a copy older than the fresh TTL', () => {
    it('fetches again (at exactly the TTL too), answers FRESH and replaces the copy', async () => {
      cachedAgo(FRESH_TTL_S, olderDetail);

      const result = await sut.enrich(NUMERO);

      expect(result).toEqual({ detail, status: 'FRESH', fetchedAt: '2026-03-14T12:00:00Z' });
      expect(cache.entries.get(NUMERO)).toEqual({ detail, fetchedAt: '2026-03-14T12:00:00Z' });
    });

    it('answers STALE with the old copy and its time when the operations system fails within the stale TTL', async () => {
      const fetchedAt = cachedAgo(STALE_TTL_S - 1, olderDetail);
      gateway.failing = true;

      const result = await sut.enrich(NUMERO);

      expect(result).toEqual({ detail: olderDetail, status: 'STALE', fetchedAt });
      expect(gateway.detailCalls).toEqual([NUMERO]);
      expect(metrics.staleServed).toHaveBeenCalledTimes(1);
      expect(warned).toHaveBeenCalledWith(`Serving a stale detail of ${NUMERO}: simulated outage`);
      expect(cache.writes).toEqual([]);
    });

    it.each([
      ['at exactly the stale TTL', STALE_TTL_S],
      ['past the stale TTL', STALE_TTL_S + 3600],
    ])('throws OperationsUnavailableError when the copy is %s old', async (_case, ageS) => {
      cachedAgo(ageS);
      gateway.failing = true;

      await expect(sut.enrich(NUMERO)).rejects.toBeInstanceOf(OperationsUnavailableError);
      expect(metrics.staleServed).not.toHaveBeenCalled();
    });

    it('does not hide another kind of failure behind the stale copy', async () => {
      cachedAgo(FRESH_TTL_S + 1);
      const bug = new TypeError('not an outage');
      jest.spyOn(gateway, 'getProcessDetail').mockRejectedValue(bug);

      await expect(sut.enrich(NUMERO)).rejects.toBe(bug);
      expect(metrics.staleServed).not.toHaveBeenCalled();
    });
  });

  describe('concurrent calls', () => {
    it('share one upstream call for the same numero, and all answer FRESH', async () => {
      gateway.hold();
      const calls = [sut.enrich(NUMERO), sut.enrich(NUMERO), sut.enrich(NUMERO)];
      await settle();
      gateway.release();

      const results = await Promise.all(calls);

      expect(gateway.detailCalls).toEqual([NUMERO]);
      for (const result of results)
        expect(result).toEqual({ detail, status: 'FRESH', fetchedAt: '2026-03-14T12:00:00Z' });
      expect(cache.writes).toHaveLength(1);
    });

    it('do not share a call for different numeros', async () => {
      gateway.details.set('IMP-2026-0002', { ...structuredClone(detail), numero: 'IMP-2026-0002' });
      gateway.hold();
      const calls = [sut.enrich(NUMERO), sut.enrich('IMP-2026-0002')];
      await settle();
      gateway.release();

      const [first, second] = await Promise.all(calls);

      expect([...gateway.detailCalls].sort()).toEqual([NUMERO, 'IMP-2026-0002']);
      expect(first?.detail.numero).toBe(NUMERO);
      expect(second?.detail.numero).toBe('IMP-2026-0002');
    });

    it('share a failure too, each falling back to its own stale copy or error', async () => {
      const fetchedAt = cachedAgo(FRESH_TTL_S + 1, olderDetail);
      gateway.failing = true;
      gateway.hold();
      const calls = [sut.enrich(NUMERO), sut.enrich(NUMERO)];
      await settle();
      gateway.release();

      const results = await Promise.all(calls);

      expect(gateway.detailCalls).toEqual([NUMERO]);
      expect(results).toEqual([
        { detail: olderDetail, status: 'STALE', fetchedAt },
        { detail: olderDetail, status: 'STALE', fetchedAt },
      ]);
    });

    it('forget the shared call once it has settled, so a later miss asks again', async () => {
      gateway.failing = true;
      await expect(sut.enrich(NUMERO)).rejects.toBeInstanceOf(OperationsUnavailableError);
      gateway.failing = false;

      expect((await sut.enrich(NUMERO))?.status).toBe('FRESH');
      expect(gateway.detailCalls).toEqual([NUMERO, NUMERO]);
    });
  });
});
