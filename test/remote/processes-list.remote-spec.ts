/**
 * The list of processes, against the deployment: paging by `Link`, and every filter the served
 * document declares, each checked on what it answers (every item matches, and `meta.totalItems`
 * is the number of items its pages hold).
 */
import type { Problem, ProcessList, ProcessSummary } from './support/api-types.js';
import { linkTarget, RemoteApi, ROOM_WAIT_MS } from './support/remote-api.js';

/** A filter made from the user's own processes: the query that asks for it, and what each item must be. */
type Filter = (processes: ProcessSummary[]) => { query: string; holds: (item: ProcessSummary) => boolean };

type DateOf = (item: ProcessSummary) => string | null;
const inDays = (value: string | null, from: string, to: string) =>
  value !== null && value.slice(0, 10) >= from && value.slice(0, 10) <= to;
/** The days a quarter and three quarters of the way through the processes' dates: bounds that hold some, not all. */
const quartiles = (processes: ProcessSummary[], dateOf: DateOf): [string, string] => {
  const days = processes.flatMap((item) => dateOf(item)?.slice(0, 10) ?? []).sort();
  return [
    days[Math.floor(days.length / 4)] ?? '2026-01-01',
    days[Math.floor((days.length * 3) / 4)] ?? '2026-12-31',
  ];
};
/** An inclusive lower (`From`) or upper (`To`) bound on a date, a day as the bound. */
const lowerBound =
  (name: string, dateOf: DateOf): Filter =>
  (processes) => {
    const [from] = quartiles(processes, dateOf);
    return { query: `${name}=${from}`, holds: (item) => inDays(dateOf(item), from, '9999-12-31') };
  };
const upperBound =
  (name: string, dateOf: DateOf): Filter =>
  (processes) => {
    const [, to] = quartiles(processes, dateOf);
    return { query: `${name}=${to}`, holds: (item) => inDays(dateOf(item), '0001-01-01', to) };
  };
const values =
  (query: string, holds: (item: ProcessSummary) => boolean): Filter =>
  () => ({ query, holds });

/** One entry per query parameter of the list: a parameter the document adds must be added here. */
const FILTERS: Record<string, Filter> = {
  // Both forms, mixed, in any case.
  status: values('status=in_transit,ARRIVED&status=CLEARED', (item) =>
    ['IN_TRANSIT', 'ARRIVED', 'CLEARED'].includes(item.status),
  ),
  type: values('type=export', (item) => item.summary.type === 'EXPORT'),
  mode: values('mode=AIR&mode=road', (item) => ['AIR', 'ROAD'].includes(item.summary.mode)),
  customsChannel: values(
    'customsChannel=NONE,red',
    (item) => item.summary.customsChannel === null || item.summary.customsChannel === 'RED',
  ),
  shipmentFrom: lowerBound('shipmentFrom', (item) => item.summary.shipmentDate),
  shipmentTo: upperBound('shipmentTo', (item) => item.summary.shipmentDate),
  updatedFrom: lowerBound('updatedFrom', (item) => item.updatedAt),
  updatedTo: upperBound('updatedTo', (item) => item.updatedAt),
  etaFrom: lowerBound('etaFrom', (item) => item.summary.eta),
  etaTo: upperBound('etaTo', (item) => item.summary.eta),
  freeTimeEndsFrom: lowerBound('freeTimeEndsFrom', (item) => item.summary.freeTimeEndsAt),
  freeTimeEndsTo: upperBound('freeTimeEndsTo', (item) => item.summary.freeTimeEndsAt),
  container: (processes) => {
    const container = processes.flatMap((item) => item.summary.containers)[0] ?? 'MSCU1234566';
    // Case, spaces and hyphens do not matter.
    const asTyped = `${container.slice(0, 4).toLowerCase()}-${container.slice(4)}`;
    return { query: `container=${asTyped}`, holds: (item) => item.summary.containers.includes(container) };
  },
  delayedByDays: values(
    'delayedByDays=1',
    (item) => ((item.summary as { etaDelayDays?: number | null }).etaDelayDays ?? 0) >= 1,
  ),
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
    const { query, holds } = FILTERS[name]!(processes);

    const { items, total } = await readAll(query);

    expect(items.length).toBe(total);
    expect(items.filter((item) => !holds(item)).map((item) => item.numero)).toEqual([]);
    // Not empty by accident: the processes read before had some it holds.
    if (processes.some(holds)) expect(items.length).toBeGreaterThan(0);
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
