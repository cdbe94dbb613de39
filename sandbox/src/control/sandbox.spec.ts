import { demoSimulationOptions } from '../simulation/simulation-options.js';
import type { OperationsProcess } from '../upstream/upstream-api.js';
import { ControlError } from './control-error.js';
import { Sandbox } from './sandbox.js';
import { SandboxClock } from './sandbox-clock.js';

const START = Date.parse('2026-03-14T12:00:30Z');

function frozenSandbox(): { sandbox: Sandbox; clock: SandboxClock } {
  const clock = SandboxClock.frozenAt(new Date(START));
  return { sandbox: new Sandbox(demoSimulationOptions(new Date(START)), clock), clock };
}

function everything(sandbox: Sandbox, updatedSince: string | null = null): OperationsProcess[] {
  const items: OperationsProcess[] = [];
  let cursor: string | null = null;
  do {
    const page = sandbox.listChangedProcesses({ updatedSince, cursor, limit: 97 });
    items.push(...page.items);
    cursor = page.nextCursor;
  } while (cursor !== null);
  return items;
}

/** A process of the simulation still on its way. */
const inProgress = (sandbox: Sandbox, skip = 0): string =>
  everything(sandbox).filter(({ status }) => status !== 'DELIVERED' && status !== 'CANCELLED')[skip]
    ?.numero ?? '';

const statusOf = (sandbox: Sandbox, numero: string): string | undefined => sandbox.getProcess(numero)?.status;

function refusal(call: () => unknown): ControlError {
  try {
    call();
  } catch (error) {
    if (error instanceof ControlError) return error;
    throw error;
  }
  throw new Error('the call was not refused');
}

describe(Sandbox.name, () => {
  it('creates a process for a customer that then walks its whole path, one status a call', () => {
    const { sandbox } = frozenSandbox();
    const created = sandbox.createProcess({ customer: 'acme', type: 'IMPORT', mode: 'SEA' });
    expect(created).toEqual(
      expect.objectContaining({
        status: 'OPEN',
        type: 'IMPORT',
        mode: 'SEA',
        customer: expect.objectContaining({ id: 'acme' }),
      }),
    );
    expect(created.events.map((event) => event.code)).toEqual(['PROCESS_OPENED']);
    const statuses = [created.status];
    for (let step = 0; step < 6; step++) statuses.push(sandbox.advance(created.numero).status);
    expect(statuses).toEqual([
      'OPEN',
      'BOOKED',
      'IN_TRANSIT',
      'ARRIVED',
      'CUSTOMS_CLEARANCE',
      'CLEARED',
      'DELIVERED',
    ]);
    expect(refusal(() => sandbox.advance(created.numero)).status).toBe(409);
    expect(sandbox.getProcessDetail(created.numero)?.shipment.arrivalDate).not.toBeNull();
  });

  it('gives every change a later updatedAt, a second more while the clock stands still', () => {
    const { sandbox } = frozenSandbox();
    const { numero } = sandbox.createProcess({ customer: 'globex', type: 'EXPORT', mode: 'AIR' });
    const stamps = [sandbox.getProcess(numero)?.updatedAt];
    stamps.push(sandbox.advance(numero).updatedAt, sandbox.advance(numero).updatedAt);
    expect(stamps).toEqual(['2026-03-14T12:00:30Z', '2026-03-14T12:00:31Z', '2026-03-14T12:00:32Z']);
  });

  it('lists a controlled process once, after the simulation, and only when it changed since', () => {
    const { sandbox } = frozenSandbox();
    const before = everything(sandbox);
    const { numero } = sandbox.createProcess({ customer: 'acme', type: 'IMPORT', mode: 'AIR' });
    const after = everything(sandbox);
    expect(after).toHaveLength(before.length + 1);
    expect(after[after.length - 1]?.numero).toBe(numero);
    expect(everything(sandbox, '2026-03-14T12:00:30Z')).toEqual([]);
    const existing = inProgress(sandbox);
    sandbox.cancel(existing);
    expect(everything(sandbox, '2026-03-14T12:00:30Z').map((process) => process.numero)).toEqual([existing]);
    expect(everything(sandbox).filter((process) => process.numero === existing)).toHaveLength(1);
  });

  it('sets the customs channel once declared, with its event, and refuses it before or after clearance', () => {
    const { sandbox } = frozenSandbox();
    const { numero } = sandbox.createProcess({ customer: 'acme', type: 'IMPORT', mode: 'SEA' });
    expect(refusal(() => sandbox.setCustomsChannel(numero, 'RED')).status).toBe(409);
    while (statusOf(sandbox, numero) !== 'CUSTOMS_CLEARANCE') sandbox.advance(numero);
    const red = sandbox.setCustomsChannel(numero, 'RED');
    expect(red.customsChannel).toBe('RED');
    expect(red.customs?.channel).toBe('RED');
    expect(
      red.events.some(
        (event) => event.code === 'CUSTOMS_CHANNEL_ASSIGNED' && /vermelho/.test(event.description),
      ),
    ).toBe(true);
    expect(sandbox.setCustomsChannel(numero, 'YELLOW').customsChannel).toBe('YELLOW');
    sandbox.advance(numero);
    expect(refusal(() => sandbox.setCustomsChannel(numero, 'GREEN')).status).toBe(409);
  });

  it('moves the ETA of a booked process with a note, and refuses it once arrived', () => {
    const { sandbox } = frozenSandbox();
    const { numero } = sandbox.createProcess({ customer: 'acme', type: 'IMPORT', mode: 'SEA' });
    expect(refusal(() => sandbox.moveEta(numero, '2026-05-01')).status).toBe(409);
    sandbox.advance(numero);
    const moved = sandbox.moveEta(numero, '2026-05-01');
    expect(moved.eta).toBe('2026-05-01');
    expect(moved.events.at(-1)?.description).toMatch(/alterada de \d\d\/\d\d\/\d{4} para 01\/05\/2026/);
    expect(sandbox.getProcessDetail(numero)?.voyages.at(-1)?.eta?.slice(0, 10)).toBe('2026-05-01');
    sandbox.advance(numero);
    sandbox.advance(numero);
    expect(statusOf(sandbox, numero)).toBe('ARRIVED');
    // Advanced by hand, it arrives now rather than on its ETA.
    expect(sandbox.getProcess(numero)?.arrivalDate).toBe('2026-03-14');
    expect(refusal(() => sandbox.moveEta(numero, '2026-06-01')).status).toBe(409);
  });

  it('keeps the ETA it moved for a ship at sea, whose position reports no longer estimate another', () => {
    const { sandbox } = frozenSandbox();
    const { numero } = sandbox.createProcess({ customer: 'acme', type: 'IMPORT', mode: 'SEA' });
    while (statusOf(sandbox, numero) !== 'IN_TRANSIT') sandbox.advance(numero);
    const reported = sandbox.getProcess(numero)?.events.at(-1)?.description;
    expect(reported).toMatch(/^Posição do navio atualizada: .*, chegada prevista em \d\d\/\d\d\/\d{4}$/);

    for (const eta of ['2026-05-01', '2026-05-03', '2026-05-02']) {
      expect(sandbox.moveEta(numero, eta).eta).toBe(eta);
      expect(sandbox.getProcessDetail(numero)?.voyages.at(-1)?.eta?.slice(0, 10)).toBe(eta);
    }
  });

  it('adds and retracts events, its own and the simulation’s', () => {
    const { sandbox } = frozenSandbox();
    const { numero } = sandbox.createProcess({ customer: 'acme', type: 'EXPORT', mode: 'ROAD' });
    const { event } = sandbox.addEvent(numero, { code: 'NOTE', description: 'Aguardando documentos' });
    expect(event).toEqual({
      id: `evt_${numero.toLowerCase()}-c01`,
      code: 'NOTE',
      description: 'Aguardando documentos',
      occurredAt: '2026-03-14T12:00:30Z',
      location: null,
    });
    expect(sandbox.retractEvent(numero, event.id).events.map((each) => each.id)).not.toContain(event.id);
    const opened = sandbox.getProcess(numero)?.events[0]?.id ?? '';
    expect(sandbox.retractEvent(numero, opened).events).toEqual([]);
    expect(refusal(() => sandbox.retractEvent(numero, opened)).status).toBe(404);
    expect(sandbox.addEvent(numero, { code: 'NOTE' }).event.id).toBe(`evt_${numero.toLowerCase()}-c02`);
  });

  it('cancels what is not over yet', () => {
    const { sandbox } = frozenSandbox();
    const { numero } = sandbox.createProcess({ customer: 'acme', type: 'IMPORT', mode: 'AIR' });
    const cancelled = sandbox.cancel(numero);
    expect(cancelled.status).toBe('CANCELLED');
    expect(cancelled.events.at(-1)?.code).toBe('CANCELLED');
    expect(refusal(() => sandbox.cancel(numero)).status).toBe(409);
    expect(refusal(() => sandbox.advance(numero)).status).toBe(409);
  });

  it('answers 404 for a numero it does not know and 400 for an unknown customer', () => {
    const { sandbox } = frozenSandbox();
    expect(refusal(() => sandbox.advance('IMP-2026-999999')).status).toBe(404);
    expect(refusal(() => sandbox.createProcess({ customer: 'nobody', type: 'IMPORT', mode: 'SEA' }))).toEqual(
      expect.objectContaining({ status: 400, field: 'customer' }),
    );
  });

  it('reports every change to its listeners', () => {
    const { sandbox } = frozenSandbox();
    const heard: string[][] = [];
    sandbox.onChange((numeros) => heard.push(numeros));
    const { numero } = sandbox.createProcess({ customer: 'acme', type: 'IMPORT', mode: 'SEA' });
    sandbox.advance(numero);
    sandbox.reset();
    expect(heard).toEqual([[numero], [numero], [numero]]);
  });

  it('gives the same data for the same seed, time and calls', () => {
    const script = (sandbox: Sandbox): void => {
      const { numero } = sandbox.createProcess({ customer: 'acme', type: 'IMPORT', mode: 'SEA' });
      sandbox.advance(numero);
      sandbox.moveEta(numero, '2026-04-20');
      const existing = inProgress(sandbox, 5);
      sandbox.addEvent(existing, { code: 'NOTE', description: 'x' });
      sandbox.cancel(existing);
    };
    const first = frozenSandbox();
    const second = frozenSandbox();
    script(first.sandbox);
    script(second.sandbox);
    const all = (sandbox: Sandbox) =>
      everything(sandbox).map((process) => ({ process, detail: sandbox.getProcessDetail(process.numero) }));
    expect(all(first.sandbox)).toEqual(all(second.sandbox));
    expect(all(first.sandbox)).not.toEqual(all(frozenSandbox().sandbox));
  });

  it('resets to the data of a seed, every process counting as changed at the reset', () => {
    const { sandbox, clock } = frozenSandbox();
    const pristine = everything(sandbox);
    const { numero } = sandbox.createProcess({ customer: 'acme', type: 'IMPORT', mode: 'SEA' });
    sandbox.cancel(inProgress(sandbox));
    clock.advance(60_000);
    sandbox.reset();
    const after = everything(sandbox, '2026-03-14T12:01:00Z');
    const byNumero = (processes: OperationsProcess[]) =>
      [...processes].sort((a, b) => a.numero.localeCompare(b.numero));
    expect(after.map((process) => process.numero).sort()).toEqual(
      pristine.map((process) => process.numero).sort(),
    );
    expect(after.every((process) => process.updatedAt >= '2026-03-14T12:01:30Z')).toBe(true);
    expect(sandbox.getProcess(numero)).toBeNull();
    expect(byNumero(after).map(({ customer, type, origin }) => ({ customer, type, origin }))).toEqual(
      byNumero(pristine).map(({ customer, type, origin }) => ({ customer, type, origin })),
    );
  });
});
