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

/** Queries the list refuses, each with the parameters its problem must name (and no others). */
const REFUSED_QUERIES: Array<[string, string[]]> = [
  ['page=0', ['page']],
  ['page=-1', ['page']],
  ['page=1e3', ['page']],
  ['page=0x10', ['page']],
  ['page=1.5', ['page']],
  ['page=', ['page']],
  ['page=%201', ['page']],
  ['pageSize=0', ['pageSize']],
  ['pageSize=101', ['pageSize']],
  ['pageSize=500', ['pageSize']],
  ['status=FOO', ['status']],
  ['status=', ['status']],
  ['status=OPEN,', ['status']],
  ['status[]=OPEN', ['status[]']],
  ['status[$ne]=OPEN', ['status[$ne]']],
  ['page=1&page=2', ['page']],
  ['status=OPEN&status=', ['status']],
  ['status=OPEN&status=FOO', ['status']],
  ['sort=numero&sort=-numero', ['sort']],
  ['type=IMPORT&type=EXPORT', ['type']],
  ['container=CSQU3054383&container=CSQU3054383', ['container']],
  ['foo=bar', ['foo']],
  ['shipmentFrom=2026-02-30', ['shipmentFrom']],
  ['shipmentFrom=2026-13-01', ['shipmentFrom']],
  ['shipmentFrom=20260101', ['shipmentFrom']],
  ['shipmentTo=2026-1-5', ['shipmentTo']],
  ['shipmentFrom=2026-02-10&shipmentTo=2026-02-01', ['shipmentTo']],
  ['updatedFrom=2026-03-14T25:00:00Z', ['updatedFrom']],
  ['updatedFrom=2026-03-14T12:00:00', ['updatedFrom']],
  ['updatedFrom=2026-02-29T12:00:00Z', ['updatedFrom']],
  ['updatedTo=yesterday', ['updatedTo']],
  ['updatedTo=0000-12-31', ['updatedTo']],
  ['updatedFrom=0000-12-31T12:00:00Z', ['updatedFrom']],
  ['updatedTo=10000-01-01', ['updatedTo']],
  ['updatedFrom=%2B010000-01-01T00:00:00Z', ['updatedFrom']],
  ['shipmentTo=0000-01-01', ['shipmentTo']],
  ['updatedFrom=2026-03-05&updatedTo=2026-03-04T23:59:59Z', ['updatedTo']],
  ['container=CSQU3054384', ['container']],
  ['container=MSCU1234565', ['container']],
  ['container=ABC', ['container']],
  ['container=', ['container']],
  ['type=SEA', ['type']],
  ['type=IMPORT,EXPORT', ['type']],
  ['type=', ['type']],
  ['mode=BOAT', ['mode']],
  ['mode=SEA,', ['mode']],
  ['mode=SEA&mode=BOAT', ['mode']],
  ['customsChannel=BLUE', ['customsChannel']],
  ['customsChannel=', ['customsChannel']],
  ['customsChannel[]=RED', ['customsChannel[]']],
  ['channel=RED', ['channel']],
  ['sort=status', ['sort']],
  ['sort=', ['sort']],
  ['sort=delay', ['sort']],
  ['etaFrom=2026-02-30', ['etaFrom']],
  ['etaTo=2026-03', ['etaTo']],
  ['etaFrom=2026-03-10&etaTo=2026-03-09', ['etaTo']],
  ['etaFrom=2026-03-10&etaFrom=2026-03-11', ['etaFrom']],
  ['freeTimeEndsFrom=tomorrow', ['freeTimeEndsFrom']],
  ['freeTimeEndsFrom=2026-03-10&freeTimeEndsTo=2026-03-01', ['freeTimeEndsTo']],
  ['freeTimeEndsTo=0000-12-31', ['freeTimeEndsTo']],
  ['delayedByDays=0', ['delayedByDays']],
  ['delayedByDays=366', ['delayedByDays']],
  ['delayedByDays=1.5', ['delayedByDays']],
  ['delayedByDays=', ['delayedByDays']],
  ['delayedByDays=3&delayedByDays=4', ['delayedByDays']],
  ['page=0&pageSize=500&sort=x', ['page', 'pageSize', 'sort']],
];
/**
 * Whether the deployment refuses a query for exactly the parameters given: not when another of the
 * query's parameters is one it does not document (a release from before that filter names it too).
 */
const refusedHereFor = ([query, names]: [string, string[]]) =>
  [...new URLSearchParams(query).keys()].every(
    (name) => names.includes(name) || documented.some((parameter) => parameter.name === name),
  );

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
    token = await api.signInFor(200);
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

  it.each(REFUSED_QUERIES.filter(refusedHereFor))(
    'refuses ?%s with a problem naming each bad parameter',
    async (query, names) => {
      const answer = await api.get<Problem>(`/api/processes?${query}`, { token });

      expect(answer.status).toBe(400);
      expect(answer.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(answer.body).toMatchObject({
        type: '/problems/invalid-request',
        title: 'Invalid request',
        status: 400,
        instance: `/api/processes?${query}`,
      });
      const errors = answer.body.errors ?? [];
      expect(errors.map((error) => error.name).sort()).toEqual([...names].sort());
      for (const error of errors) {
        expect(error.in).toBe('query');
        expect(error.message).not.toBe('');
      }
    },
  );

  it('says that a single-value parameter comes once, and what pageSize must be', async () => {
    const twice = await api.get<Problem>('/api/processes?page=1&page=2', { token });
    const tooLarge = await api.get<Problem>('/api/processes?pageSize=500', { token });

    expect(twice.body.errors).toEqual([{ in: 'query', name: 'page', message: 'must be given at most once' }]);
    expect(tooLarge.body.detail).toBe('pageSize must be an integer between 1 and 100');
    expect(tooLarge.body.errors).toEqual([
      { in: 'query', name: 'pageSize', message: 'must be an integer between 1 and 100' },
    ]);
  });

  it('takes any safe integer as a page number, and no larger one', async () => {
    const largest = await api.get<ProcessList>('/api/processes?page=9007199254740991', { token });
    const beyond = await api.get<Problem>('/api/processes?page=9007199254740992', { token });

    expect(largest.status).toBe(200);
    expect(largest.body.data).toEqual([]);
    expect(beyond.status).toBe(400);
  });

  it('refuses a query string over 4 KiB with a problem', async () => {
    const answer = await api.get<Problem>(`/api/processes?status=${'OPEN,'.repeat(1100)}OPEN`, { token });

    expect([400, 414]).toContain(answer.status);
    expect(answer.headers['content-type']).toMatch(/^application\/problem\+json/);
  });
});
