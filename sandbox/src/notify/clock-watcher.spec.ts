import { Sandbox } from '../control/sandbox.js';
import { SandboxClock } from '../control/sandbox-clock.js';
import { demoSimulationOptions } from '../simulation/simulation-options.js';
import { ClockWatcher } from './clock-watcher.js';

describe(ClockWatcher.name, () => {
  const start = Date.parse('2026-03-14T12:00:30Z');

  function watched() {
    const clock = SandboxClock.frozenAt(new Date(start));
    const sandbox = new Sandbox(demoSimulationOptions(new Date(start)), clock);
    const reports: string[][] = [];
    return {
      clock,
      sandbox,
      reports,
      sut: new ClockWatcher(sandbox, clock, (numeros) => reports.push(numeros)),
    };
  }

  it('reports nothing while the clock stands still', () => {
    const { sut, reports } = watched();
    sut.check();
    sut.check();
    expect(reports).toEqual([]);
  });

  it('reports exactly the processes the passing time changed', () => {
    const { sut, reports, clock, sandbox } = watched();
    clock.advance(6 * 3_600_000);
    sut.check();
    const changed = new Set<string>();
    let cursor: string | null = null;
    do {
      const page = sandbox.listChangedProcesses({
        updatedSince: '2026-03-14T12:00:30Z',
        cursor,
        limit: 1000,
      });
      page.items.forEach((process) => changed.add(process.numero));
      cursor = page.nextCursor;
    } while (cursor !== null);
    expect(changed.size).toBeGreaterThan(0);
    expect(reports).toHaveLength(1);
    expect(new Set(reports[0])).toEqual(changed);
    sut.check();
    expect(reports).toHaveLength(1);
  });

  it('leaves out what control calls changed: they report it themselves, and it no longer moves with time', () => {
    const { sut, reports, clock, sandbox } = watched();
    const { numero } = sandbox.createProcess({ customer: 'acme', type: 'IMPORT', mode: 'SEA' });
    clock.advance(6 * 3_600_000);
    sut.check();
    expect(reports).toHaveLength(1);
    expect(reports[0]).not.toContain(numero);
  });
});
