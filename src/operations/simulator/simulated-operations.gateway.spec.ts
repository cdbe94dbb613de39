import { FakeClock } from '../../testing/fake-clock.js';
import { OperationsUnavailableError } from '../operations.gateway.js';
import type { ChangedProcessesQuery, OperationsProcess } from '../operations.types.js';
import { OperationsSimulator } from './operations-simulator.js';
import { SimulatedOperationsGateway } from './simulated-operations.gateway.js';
import { demoSimulationOptions } from './simulation-options.js';

const HOUR_MS = 3_600_000;
const TODAY = new Date('2026-03-14T12:00:00Z');

async function pageThrough(
  sut: SimulatedOperationsGateway,
  updatedSince: string | null,
  limit: number,
  betweenPages: () => void = () => undefined,
): Promise<{ items: OperationsProcess[]; pages: number }> {
  const items: OperationsProcess[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const query: ChangedProcessesQuery = { updatedSince, cursor, limit };
    const page = await sut.listChangedProcesses(query);
    expect(page.items.length).toBeLessThanOrEqual(limit);
    items.push(...page.items);
    cursor = page.nextCursor;
    pages++;
    if (cursor !== null) betweenPages();
  } while (cursor !== null);
  return { items, pages };
}

describe(SimulatedOperationsGateway.name, () => {
  const simulator = new OperationsSimulator(demoSimulationOptions(TODAY));
  const clock = new FakeClock(TODAY);
  const sut = new SimulatedOperationsGateway(simulator, clock);

  beforeEach(() => {
    clock.set(TODAY);
  });

  it('pages through every existing process exactly once, oldest change first', async () => {
    const expected = [...simulator.processesAt(clock.now())];
    const { items, pages } = await pageThrough(sut, null, 7);

    expect(pages).toBe(Math.ceil(expected.length / 7));
    const byNumero = (a: OperationsProcess, b: OperationsProcess): number => a.numero.localeCompare(b.numero);
    expect([...items].sort(byNumero)).toEqual([...expected].sort(byNumero));
    // Ties (several processes changing in one minute) come in the simulator's process order,
    // which the numero's serial follows.
    const keys = items.map((item) => `${item.updatedAt} ${item.numero.slice(-6)}`);
    expect(keys).toEqual([...keys].sort());
  });

  it('returns only processes updated strictly after updatedSince', async () => {
    const everything = [...simulator.processesAt(clock.now())];
    const pivot = everything.map((item) => item.updatedAt).sort()[Math.floor(everything.length / 2)] ?? '';

    const { items } = await pageThrough(sut, pivot, 50);

    const expected = everything.filter((item) => item.updatedAt > pivot).map((item) => item.numero);
    expect(items.map((item) => item.numero).sort()).toEqual(expected.sort());
    expect(items.some((item) => item.updatedAt === pivot)).toBe(false);
    const justBefore = new Date(Date.parse(pivot) - 1000).toISOString();
    const { items: withPivot } = await pageThrough(sut, justBefore, 50);
    expect(withPivot.some((item) => item.updatedAt === pivot)).toBe(true);
  });

  it('accepts any RFC 3339 offset for updatedSince', async () => {
    const utc = await sut.listChangedProcesses({
      updatedSince: '2026-03-10T12:00:00Z',
      cursor: null,
      limit: 1000,
    });
    const local = await sut.listChangedProcesses({
      updatedSince: '2026-03-10T09:00:00-03:00',
      cursor: null,
      limit: 1000,
    });
    expect(local).toEqual(utc);
    expect(utc.items.length).toBeGreaterThan(0);
  });

  it('misses nothing when the clock moves between pages: the last copy of each is the current one', async () => {
    const since = '2026-03-01T00:00:00Z';
    const { items } = await pageThrough(sut, since, 5, () => {
      clock.advance(6 * HOUR_MS);
    });

    const latest = new Map(items.map((item) => [item.numero, item]));
    const expected = [...simulator.processesAt(clock.now())].filter((item) => item.updatedAt > since);
    expect(expected.length).toBeGreaterThan(0);
    for (const process of expected) {
      expect(latest.get(process.numero)).toEqual(process);
    }
    // Some processes changed during the walk and were listed twice.
    expect(items.length).toBeGreaterThan(latest.size);
  });

  it('gives the detail case-insensitively, and null for unknown or not yet opened processes', async () => {
    const [first] = simulator.processesAt(clock.now());
    const numero = first?.numero ?? '';

    const detail = await sut.getProcessDetail(numero.toLowerCase());

    expect(detail?.numero).toBe(numero);
    expect(detail).toEqual(simulator.getProcessDetail(numero, clock.now()));
    await expect(sut.getProcessDetail('IMP-2026-999999')).resolves.toBeNull();
    await expect(sut.getProcessDetail('')).resolves.toBeNull();
    const future = simulator.plan(simulator.processCount - 1).numero;
    expect(simulator.getProcess(future, clock.now())).toBeNull();
    await expect(sut.getProcessDetail(future)).resolves.toBeNull();
  });

  it('reports a malformed query as the operations system being unusable', async () => {
    await expect(
      sut.listChangedProcesses({ updatedSince: null, cursor: 'not-a-cursor', limit: 10 }),
    ).rejects.toThrow(OperationsUnavailableError);
    await expect(sut.listChangedProcesses({ updatedSince: null, cursor: null, limit: 0 })).rejects.toThrow(
      OperationsUnavailableError,
    );
    for (const updatedSince of ['yesterday', '2026-02-30T00:00:00Z', '2026-03-14T12:00:00', '2026-03-14']) {
      await expect(sut.listChangedProcesses({ updatedSince, cursor: null, limit: 10 })).rejects.toThrow(
        OperationsUnavailableError,
      );
    }
  });

  it('builds its own simulator from options', async () => {
    const fromOptions = new SimulatedOperationsGateway(demoSimulationOptions(TODAY), new FakeClock(TODAY));
    const page = await fromOptions.listChangedProcesses({ updatedSince: null, cursor: null, limit: 3 });
    expect(page).toEqual(await sut.listChangedProcesses({ updatedSince: null, cursor: null, limit: 3 }));
  });
});
