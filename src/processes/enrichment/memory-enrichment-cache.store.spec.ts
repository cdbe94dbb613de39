import { anOperationsDetail, anOperationsProcess } from '../../testing/operations-process.factory.js';
import type { CachedEnrichment } from './enrichment-cache.store.js';
import { MAX_CACHED_JSON_CHARS, MemoryEnrichmentCacheStore } from './memory-enrichment-cache.store.js';

const MINUTE_MS = 60_000;

/** A cached detail whose JSON is about `chars` long (a long party name carries the bulk). */
function anEntryOf(numero: string, chars: number): CachedEnrichment {
  const detail = anOperationsDetail(anOperationsProcess({ numero }));
  detail.parties = [{ ...detail.parties[0]!, name: 'x'.repeat(chars) }];
  return { detail, fetchedAt: '2026-03-07T12:00:00Z' };
}

describe(MemoryEnrichmentCacheStore.name, () => {
  let sut: MemoryEnrichmentCacheStore;

  beforeEach(() => {
    sut = new MemoryEnrichmentCacheStore();
  });

  it('answers what was set, and nothing for what was not', async () => {
    const entry = anEntryOf('IMP-2026-000001', 100);

    await sut.set('IMP-2026-000001', entry, MINUTE_MS);

    await expect(sut.get('IMP-2026-000001')).resolves.toEqual(entry);
    await expect(sut.get('IMP-2026-000002')).resolves.toBeUndefined();
  });

  it('hands out copies: changing an answer changes nothing cached', async () => {
    const entry = anEntryOf('IMP-2026-000001', 100);
    await sut.set('IMP-2026-000001', entry, MINUTE_MS);
    entry.fetchedAt = '2030-01-01T00:00:00Z';

    const answer = await sut.get('IMP-2026-000001');
    answer!.detail.parties = [];

    await expect(sut.get('IMP-2026-000001')).resolves.toEqual({
      ...entry,
      fetchedAt: '2026-03-07T12:00:00Z',
    });
  });

  it('keeps nothing given no time to live', async () => {
    await sut.set('IMP-2026-000001', anEntryOf('IMP-2026-000001', 100), 0);

    await expect(sut.get('IMP-2026-000001')).resolves.toBeUndefined();
  });

  it('drops the least recently used details once their JSON outgrows the bound', async () => {
    const quarter = MAX_CACHED_JSON_CHARS / 4;
    const numeros = ['IMP-2026-000001', 'IMP-2026-000002', 'IMP-2026-000003', 'IMP-2026-000004'];
    for (const numero of numeros.slice(0, 3)) await sut.set(numero, anEntryOf(numero, quarter), MINUTE_MS);
    await sut.get('IMP-2026-000001');

    // A fourth quarter plus the entries' other fields is over the bound: one entry must go.
    await sut.set('IMP-2026-000004', anEntryOf('IMP-2026-000004', quarter), MINUTE_MS);

    await expect(sut.get('IMP-2026-000002')).resolves.toBeUndefined();
    for (const numero of ['IMP-2026-000001', 'IMP-2026-000003', 'IMP-2026-000004']) {
      await expect(sut.get(numero)).resolves.toBeDefined();
    }
  });
});
