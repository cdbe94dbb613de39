import { InvalidQueryError, OperationsSimulator } from '../simulation/operations-simulator.js';
import { demoSimulationOptions } from '../simulation/simulation-options.js';
import type { OperationsProcess } from '../upstream/upstream-api.js';
import { Sandbox } from './sandbox.js';
import { SandboxClock } from './sandbox-clock.js';

const HOUR_MS = 3_600_000;
const TODAY = new Date('2026-03-14T12:00:00Z');

/** The upstream API's paging, as the service's sync walks it. */
describe(`${Sandbox.name} paging`, () => {
  const simulator = new OperationsSimulator(demoSimulationOptions(TODAY));
  let clock: SandboxClock;
  let sut: Sandbox;

  beforeEach(() => {
    clock = SandboxClock.frozenAt(TODAY);
    sut = new Sandbox(demoSimulationOptions(TODAY), clock);
  });

  function pageThrough(
    updatedSince: string | null,
    limit: number,
    betweenPages: () => void = () => undefined,
  ) {
    const items: OperationsProcess[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page = sut.listChangedProcesses({ updatedSince, cursor, limit });
      expect(page.items.length).toBeLessThanOrEqual(limit);
      items.push(...page.items);
      cursor = page.nextCursor;
      pages++;
      if (cursor !== null) betweenPages();
    } while (cursor !== null);
    return { items, pages };
  }

  it('pages through every existing process exactly once, oldest change first', () => {
    const expected = [...simulator.processesAt(clock.now())];
    const { items, pages } = pageThrough(null, 7);

    expect(pages).toBe(Math.ceil(expected.length / 7));
    const byNumero = (a: OperationsProcess, b: OperationsProcess): number => a.numero.localeCompare(b.numero);
    expect([...items].sort(byNumero)).toEqual([...expected].sort(byNumero));
    // Ties (several processes changing in one minute) come in the simulation's process order,
    // which the numero's serial follows.
    const keys = items.map((item) => `${item.updatedAt} ${item.numero.slice(-6)}`);
    expect(keys).toEqual([...keys].sort());
  });

  it('returns only processes updated strictly after updatedSince', () => {
    const everything = [...simulator.processesAt(clock.now())];
    const pivot = everything.map((item) => item.updatedAt).sort()[Math.floor(everything.length / 2)] ?? '';

    const { items } = pageThrough(pivot, 50);

    const expected = everything.filter((item) => item.updatedAt > pivot).map((item) => item.numero);
    expect(items.map((item) => item.numero).sort()).toEqual(expected.sort());
    expect(items.some((item) => item.updatedAt === pivot)).toBe(false);
    const justBefore = new Date(Date.parse(pivot) - 1000).toISOString();
    expect(pageThrough(justBefore, 50).items.some((item) => item.updatedAt === pivot)).toBe(true);
  });

  it('accepts any RFC 3339 offset for updatedSince', () => {
    const utc = sut.listChangedProcesses({ updatedSince: '2026-03-10T12:00:00Z', cursor: null, limit: 1000 });
    const local = sut.listChangedProcesses({
      updatedSince: '2026-03-10T09:00:00-03:00',
      cursor: null,
      limit: 1000,
    });
    expect(local).toEqual(utc);
    expect(utc.items.length).toBeGreaterThan(0);
  });

  it('misses nothing when the clock moves between pages: the last copy of each is the current one', () => {
    const since = '2026-03-01T00:00:00Z';
    const { items } = pageThrough(since, 5, () => clock.advance(6 * HOUR_MS));

    const latest = new Map(items.map((item) => [item.numero, item]));
    const expected = [...simulator.processesAt(clock.now())].filter((item) => item.updatedAt > since);
    expect(expected.length).toBeGreaterThan(0);
    for (const process of expected) {
      expect(latest.get(process.numero)).toEqual(process);
    }
    // Some processes changed during the walk and were listed twice.
    expect(items.length).toBeGreaterThan(latest.size);
  });

  it('gives the detail case-insensitively, and null for unknown or not yet opened processes', () => {
    const [first] = simulator.processesAt(clock.now());
    const numero = first?.numero ?? '';

    expect(sut.getProcessDetail(numero.toLowerCase())).toEqual(
      simulator.getProcessDetail(numero, clock.now()),
    );
    expect(sut.getProcessDetail('IMP-2026-999999')).toBeNull();
    expect(sut.getProcessDetail('')).toBeNull();
    const future = simulator.plan(simulator.processCount - 1).numero;
    expect(simulator.getProcess(future, clock.now())).toBeNull();
    expect(sut.getProcessDetail(future)).toBeNull();
  });

  it.each([
    ['a cursor it did not issue', { updatedSince: null, cursor: 'not-a-cursor', limit: 10 }],
    ['a controlled-phase cursor it did not issue', { updatedSince: null, cursor: 'cXYZ', limit: 10 }],
    ['a limit of 0', { updatedSince: null, cursor: null, limit: 0 }],
    ['a word for updatedSince', { updatedSince: 'yesterday', cursor: null, limit: 10 }],
    ['a day that does not exist', { updatedSince: '2026-02-30T00:00:00Z', cursor: null, limit: 10 }],
    ['an instant without offset', { updatedSince: '2026-03-14T12:00:00', cursor: null, limit: 10 }],
    ['a date', { updatedSince: '2026-03-14', cursor: null, limit: 10 }],
  ])('refuses %s', (_why, query) => {
    expect(() => sut.listChangedProcesses(query)).toThrow(InvalidQueryError);
  });
});
