/**
 * The list of processes, against the deployment: paging by `Link`, and every filter the served
 * document declares, each checked on what it answers (every item matches, and `meta.totalItems`
 * is the number of items its pages hold).
 */
import type { Problem, ProcessList, ProcessSummary } from './support/api-types.js';
import { linkTarget, RemoteApi, ROOM_WAIT_MS } from './support/remote-api.js';

/** A filter: the query that asks for it, made from the user's own processes, and what each item must be. */
interface Filter {
  query: (processes: ProcessSummary[]) => string;
  holds: (item: ProcessSummary, processes: ProcessSummary[]) => boolean;
}

const inDayRange = (value: string | null, from: string, to: string) =>
  value !== null && value.slice(0, 10) >= from && value.slice(0, 10) <= to;
/** A date range spanning the middle of the dates the processes have, so that it holds some and not all. */
const middleRange = (dates: Array<string | null>): [string, string] => {
  const known = dates.filter((date): date is string => date !== null).map((date) => date.slice(0, 10));
  known.sort();
  return [known[Math.floor(known.length / 4)]!, known[Math.floor((known.length * 3) / 4)]!];
};
const aContainer = (processes: ProcessSummary[]) =>
  processes.flatMap((process) => process.summary.containers)[0] ?? 'MSCU1234565';

/** One entry per query parameter of the list: a parameter the document adds must be added here. */
const FILTERS: Record<string, Filter> = {
  status: {
    query: () => 'status=in_transit,ARRIVED&status=CLEARED',
    holds: (item) => ['IN_TRANSIT', 'ARRIVED', 'CLEARED'].includes(item.status),
  },
  type: { query: () => 'type=export', holds: (item) => item.summary.type === 'EXPORT' },
  mode: { query: () => 'mode=AIR&mode=road', holds: (item) => ['AIR', 'ROAD'].includes(item.summary.mode) },
  customsChannel: {
    query: () => 'customsChannel=NONE,red',
    holds: (item) => item.summary.customsChannel === null || item.summary.customsChannel === 'RED',
  },
  shipmentFrom: {
    query: (all) => `shipmentFrom=${middleRange(all.map((p) => p.summary.shipmentDate))[0]}`,
    holds: (item, all) =>
      inDayRange(
        item.summary.shipmentDate,
        middleRange(all.map((p) => p.summary.shipmentDate))[0],
        '9999-12-31',
      ),
  },
  shipmentTo: {
    query: (all) => `shipmentTo=${middleRange(all.map((p) => p.summary.shipmentDate))[1]}`,
    holds: (item, all) =>
      inDayRange(
        item.summary.shipmentDate,
        '0001-01-01',
        middleRange(all.map((p) => p.summary.shipmentDate))[1],
      ),
  },
  updatedFrom: {
    query: (all) => `updatedFrom=${middleRange(all.map((p) => p.updatedAt))[0]}`,
    holds: (item, all) =>
      inDayRange(item.updatedAt, middleRange(all.map((p) => p.updatedAt))[0], '9999-12-31'),
  },
  updatedTo: {
    query: (all) => `updatedTo=${middleRange(all.map((p) => p.updatedAt))[1]}`,
    holds: (item, all) =>
      inDayRange(item.updatedAt, '0001-01-01', middleRange(all.map((p) => p.updatedAt))[1]),
  },
  container: {
    // Case, spaces and hyphens do not matter.
    query: (all) =>
      `container=${aContainer(all)
        .toLowerCase()
        .replace(/^(.{4})/, '$1-')}`,
    holds: (item, all) => item.summary.containers.includes(aContainer(all)),
  },
  etaFrom: {
    query: (all) => `etaFrom=${middleRange(all.map((p) => p.summary.eta))[0]}`,
    holds: (item, all) =>
      inDayRange(item.summary.eta, middleRange(all.map((p) => p.summary.eta))[0], '9999-12-31'),
  },
  etaTo: {
    query: (all) => `etaTo=${middleRange(all.map((p) => p.summary.eta))[1]}`,
    holds: (item, all) =>
      inDayRange(item.summary.eta, '0001-01-01', middleRange(all.map((p) => p.summary.eta))[1]),
  },
  freeTimeEndsFrom: {
    query: () => 'freeTimeEndsFrom=2000-01-01',
    holds: (item) => inDayRange(item.summary.freeTimeEndsAt, '2000-01-01', '9999-12-31'),
  },
  freeTimeEndsTo: {
    query: () => 'freeTimeEndsTo=9999-12-31',
    holds: (item) => inDayRange(item.summary.freeTimeEndsAt, '0001-01-01', '9999-12-31'),
  },
  delayedByDays: {
    query: () => 'delayedByDays=1',
    holds: (item) => ((item.summary as { etaDelayDays?: number | null }).etaDelayDays ?? 0) >= 1,
  },
};
/** Paging and order have tests of their own. */
const NOT_FILTERS = ['page', 'pageSize', 'sort'];

/** The value each sort orders by; nulls last either way. */
const SORT_KEYS: Record<string, (item: ProcessSummary) => string | null> = {
  updatedAt: (item) => item.updatedAt,
  shipmentDate: (item) => item.summary.shipmentDate,
  numero: (item) => item.numero,
  eta: (item) => item.summary.eta,
  freeTimeEndsAt: (item) => item.summary.freeTimeEndsAt,
};

const api = await RemoteApi.connect();
/** The list's query parameters as the deployment documents them: the filters and sorts it has. */
const documented = (api.conformance.document.paths['/api/processes']?.get?.parameters ?? []).filter(
  (parameter) => parameter.in === 'query',
);
const documentedFilters = Object.keys(FILTERS).filter((name) =>
  documented.some((parameter) => parameter.name === name),
);
const documentedSorts = documented.find((parameter) => parameter.name === 'sort')?.schema?.enum ?? [];

describe('the list of processes', () => {
  let token: string;
  /** Every process of the user, read once, from which the filters take their values. */
  let processes: ProcessSummary[];

  /** Every item of a query, through all its pages in `numero` order (stable while data moves). */
  const readAll = async (query: string) => {
    const items: ProcessSummary[] = [];
    let total = -1;
    for (let page = 1; ; page += 1) {
      const answer = await api.get<ProcessList>(
        `/api/processes?${query}&sort=numero&pageSize=100&page=${page}`,
        {
          token,
        },
      );
      expect(answer.status).toBe(200);
      total = page === 1 ? answer.body.meta.totalItems : total;
      items.push(...answer.body.data);
      if (page >= answer.body.meta.totalPages) return { items, total };
    }
  };

  beforeAll(async () => {
    token = await api.signInFor(120);
    processes = (await readAll('')).items;
  }, ROOM_WAIT_MS);

  it('lists the user’s processes, each with its summary and whole follow-up', async () => {
    const answer = await api.get<ProcessList>('/api/processes', { token });

    expect(answer.status).toBe(200);
    expect(answer.headers['cache-control']).toBe('private, no-cache');
    expect(answer.body.meta).toMatchObject({ page: 1, pageSize: 20 });
    expect(answer.body.data.length).toBe(Math.min(20, answer.body.meta.totalItems));
    for (const item of answer.body.data) {
      expect(item.follow).toHaveLength(item.summary.followCount);
      expect(item.lastFollow).toEqual(item.follow.at(-1) ?? null);
    }
  });

  it('pages by Link: first, next, prev and last, with no process on two pages', async () => {
    const first = await api.get<ProcessList>('/api/processes?pageSize=7&sort=numero', { token });
    const next = linkTarget(first.headers.link, 'next')!;
    const second = await api.get<ProcessList>(next, { token });
    const last = await api.get<ProcessList>(linkTarget(first.headers.link, 'last')!, { token });

    expect(linkTarget(first.headers.link, 'first')).toMatch(/page=1\b/);
    expect(linkTarget(first.headers.link, 'prev')).toBeNull();
    expect(linkTarget(second.headers.link, 'prev')).toMatch(/page=1\b/);
    expect(second.body.data.map((item) => item.numero)[0]! > first.body.data.at(-1)!.numero).toBe(true);
    expect(last.body.meta.page).toBe(first.body.meta.totalPages);
    expect(linkTarget(last.headers.link, 'next')).toBeNull();
  });

  it('answers a page past the last with no items and the true totals', async () => {
    const answer = await api.get<ProcessList>('/api/processes?page=9999', { token });

    expect(answer.status).toBe(200);
    expect(answer.body.data).toEqual([]);
    expect(answer.body.meta.totalItems).toBeGreaterThan(0);
  });

  it('has a test for every filter the document declares', () => {
    const names = documented.map((parameter) => parameter.name).filter((name) => !NOT_FILTERS.includes(name));

    expect(names.filter((name) => FILTERS[name] === undefined)).toEqual([]);
  });

  it.each(documentedFilters)('filters by %s: every item matches, and the total counts them', async (name) => {
    const filter = FILTERS[name]!;

    const { items, total } = await readAll(filter.query(processes));

    expect(items.length).toBe(total);
    expect(items.filter((item) => !filter.holds(item, processes)).map((item) => item.numero)).toEqual([]);
  });

  it('counts every process once across the values of a closed filter', async () => {
    const totalOf = async (query: string) =>
      (await api.get<ProcessList>(`/api/processes?pageSize=1&${query}`, { token })).body.meta.totalItems;

    const [all, imports, exports] = [
      await totalOf(''),
      await totalOf('type=IMPORT'),
      await totalOf('type=EXPORT'),
    ];

    expect(imports + exports).toBe(all);
    expect(imports).toBeGreaterThan(0);
  });

  it('has an order for every sort the document declares', () => {
    expect(documentedSorts.filter((sort) => SORT_KEYS[sort.replace(/^-/, '')] === undefined)).toEqual([]);
  });

  it.each(documentedSorts)('sorts by %s, nulls last', async (sort) => {
    const key = SORT_KEYS[sort.replace(/^-/, '')]!;
    const descending = sort.startsWith('-');

    const answer = await api.get<ProcessList>(`/api/processes?sort=${sort}&pageSize=100`, { token });

    const values = answer.body.data.map(key);
    const known = values.filter((value) => value !== null);
    expect(values.slice(known.length).every((value) => value === null)).toBe(true);
    const ordered = [...known].sort();
    expect(known).toEqual(descending ? ordered.reverse() : ordered);
  });

  it.each([
    ['a page size out of range', 'pageSize=0', /^pageSize$/],
    ['an unknown parameter', 'colour=blue', /^colour$/],
    ['bracket syntax', 'status[$ne]=OPEN', /^status\[\$ne\]$/],
    ['a scalar parameter repeated', 'page=1&page=2', /^page$/],
    ['an unknown status', 'status=LOST', /^status$/],
    ['an impossible date', 'shipmentFrom=2026-02-30', /^shipmentFrom$/],
    ['bounds the wrong way round', 'shipmentFrom=2026-03-01&shipmentTo=2026-02-01', /^shipment(From|To)$/],
    ['a container whose check digit is wrong', 'container=MSCU1234565', /^container$/],
    ['an unknown sort', 'sort=colour', /^sort$/],
  ])('refuses %s with a problem naming the parameter', async (_case, query, name) => {
    const answer = await api.get<Problem>(`/api/processes?${query}`, { token });

    expect(answer.status).toBe(400);
    expect(answer.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(answer.body.type).toBe('/problems/invalid-request');
    expect(answer.body.errors?.map((error) => error.name)).toContainEqual(expect.stringMatching(name));
  });
});
