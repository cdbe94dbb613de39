import { isValidContainerNumber } from './iso6346.js';
import {
  PROCESS_STATUSES,
  PROCESS_TYPES,
  STATUS_PATHS,
  TRANSPORT_MODES,
  type FollowUpCode,
  type ProcessStatus,
} from '../upstream/upstream-api.js';
import type { OperationsProcess } from '../upstream/upstream-api.js';
import { isValidCnpj } from './cnpj.js';
import { CE_MERCANTE_FORMAT, isValidDeclarationNumber } from './siscomex-numbers.js';
import { OperationsSimulator } from './operations-simulator.js';
import { DEMO_SIMULATION, demoSimulationOptions, type SimulationOptions } from './simulation-options.js';
import { DAY_MS } from './time.js';
import { DAY, etaAt, NEVER } from './process-plan.js';

const TODAY = new Date('2026-03-14T12:00:00Z');
const demoOptions = demoSimulationOptions(TODAY);

const at = (base: Date, days: number): Date => new Date(base.getTime() + days * DAY_MS);
const all = (sim: OperationsSimulator, now: Date): OperationsProcess[] => [...sim.processesAt(now)];

/** The status each code moves a process to (the contract's paths, read from the events alone). */
function impliedStatus(code: FollowUpCode, status: ProcessStatus | null): ProcessStatus | null {
  switch (code) {
    case 'PROCESS_OPENED':
      return 'OPEN';
    case 'BOOKING_CONFIRMED':
      return 'BOOKED';
    case 'DEPARTED':
      return status === 'IN_TRANSIT' ? null : 'IN_TRANSIT';
    case 'ARRIVED':
      return 'ARRIVED';
    case 'CUSTOMS_DECLARATION_REGISTERED':
      return 'CUSTOMS_CLEARANCE';
    case 'CUSTOMS_CLEARED':
      return 'CLEARED';
    case 'DELIVERED':
      return 'DELIVERED';
    case 'CANCELLED':
      return 'CANCELLED';
    default:
      return null;
  }
}

describe(OperationsSimulator.name, () => {
  const sut = new OperationsSimulator(demoOptions);

  describe('determinism', () => {
    it('gives deep-equal data for the same options and clock', () => {
      const again = new OperationsSimulator({ ...demoOptions });
      expect(all(again, TODAY)).toEqual(all(sut, TODAY));
      for (const index of [0, 17, 123, 359]) {
        expect(again.detailAt(index, TODAY)).toEqual(sut.detailAt(index, TODAY));
      }
      expect(again.customers()).toEqual(sut.customers());
    });

    it('gives different data for a different seed', () => {
      const other = new OperationsSimulator({ ...demoOptions, seed: demoOptions.seed + 1 });
      const mine = all(sut, TODAY);
      const theirs = all(other, TODAY);
      const differing = mine.filter((process, i) => JSON.stringify(process) !== JSON.stringify(theirs[i]));
      expect(differing.length).toBeGreaterThan(mine.length * 0.9);
    });

    it('plans any one process alone, identically, even at a million', () => {
      const big: SimulationOptions = { ...demoOptions, processCount: 1_000_000, customerCount: 1000 };
      const a = new OperationsSimulator(big);
      const b = new OperationsSimulator(big);
      const late = at(demoOptions.epoch, 400);
      const last = a.processAt(999_999, late);
      expect(last?.numero).toMatch(/^(IMP|EXP)-\d{4}-1000000$/);
      expect(b.processAt(999_999, late)).toEqual(last);
      expect(a.indexOf(last?.numero.toLowerCase() ?? '')).toBe(999_999);
    });
  });

  describe('demo guarantees', () => {
    // The data's shape depends only on now − epoch, which the demo keeps in [150, 151) days.
    const moments = Array.from({ length: 12 }, (_, hour) => at(demoOptions.epoch, 150 + hour / 12));

    it.each(moments.map((moment) => [moment.toISOString(), moment]))(
      'has every status, type and mode, containers, voyages and follow-ups at %s',
      (_label, moment) => {
        const processes = all(sut, moment);
        expect(processes.length).toBeGreaterThanOrEqual(300);
        expect(new Set(processes.map((p) => p.status))).toEqual(new Set(PROCESS_STATUSES));
        expect(new Set(processes.map((p) => p.type))).toEqual(new Set(PROCESS_TYPES));
        expect(new Set(processes.map((p) => p.mode))).toEqual(new Set(TRANSPORT_MODES));
        expect(processes.filter((p) => p.containers.length > 0).length).toBeGreaterThan(50);
        expect(processes.every((p) => p.events.length > 0)).toBe(true);
        const withVoyages = processes.filter(
          (p) => (sut.getProcessDetail(p.numero, moment)?.voyages.length ?? 0) > 0,
        );
        expect(withVoyages.length).toBeGreaterThan(100);
        for (const customer of ['acme', 'globex']) {
          expect(processes.filter((p) => p.customer.id === customer).length).toBeGreaterThanOrEqual(40);
        }
      },
    );

    it('starts with acme, globex and initech among its customers', () => {
      const customers = sut.customers();
      expect(customers).toHaveLength(DEMO_SIMULATION.customerCount);
      expect(customers.slice(0, 3).map((c) => c.id)).toEqual(['acme', 'globex', 'initech']);
      expect(customers[0]?.name).toBe('ACME Importadora Ltda');
    });

    it('leaves a few processes to open in the future', () => {
      const existing = all(sut, TODAY).length;
      expect(existing).toBeLessThan(DEMO_SIMULATION.processCount);
      expect(existing).toBeGreaterThan(DEMO_SIMULATION.processCount * 0.9);
      expect(all(sut, at(TODAY, 10)).length).toBeGreaterThan(existing);
      expect(all(sut, at(demoOptions.epoch, -1 / 1440))).toEqual([]);
    });
  });

  describe('timelines', () => {
    const moments = [30, 60, 100, 150, 200, 320].map((days) => at(demoOptions.epoch, days));

    it('follows the contract status paths; CANCELLED only ends a path, never after DELIVERED', () => {
      let cancelled = 0;
      for (const moment of moments) {
        for (const process of all(sut, moment)) {
          const path: ProcessStatus[] = [];
          for (const event of process.events) {
            const next = impliedStatus(event.code, path[path.length - 1] ?? null);
            if (next !== null) path.push(next);
          }
          const forward = path[path.length - 1] === 'CANCELLED' ? path.slice(0, -1) : path;
          if (forward.length < path.length) cancelled++;
          expect(STATUS_PATHS[process.type].slice(0, forward.length)).toEqual(forward);
          expect(forward).not.toContain('CANCELLED');
          expect(process.status).toBe(path[path.length - 1]);
          if (path.includes('CANCELLED')) {
            expect(forward[forward.length - 1]).not.toBe('DELIVERED');
          }
        }
      }
      expect(cancelled).toBeGreaterThan(0);
    });

    it('sorts events by occurredAt then id, with unique ids, and updatedAt is the latest change', () => {
      for (const process of all(sut, TODAY)) {
        const ids = process.events.map((event) => event.id);
        expect(new Set(ids).size).toBe(ids.length);
        const sorted = [...process.events].sort(
          (a, b) => a.occurredAt.localeCompare(b.occurredAt) || a.id.localeCompare(b.id),
        );
        expect(process.events).toEqual(sorted);
        expect(process.updatedAt >= (process.events[process.events.length - 1]?.occurredAt ?? '')).toBe(true);
        expect(process.updatedAt <= '2026-03-14T12:00:00Z').toBe(true);
      }
    });

    it('only adds or changes data as the clock advances, always with a later updatedAt', () => {
      // Daily steps, so short-lived provisional notes are seen both present and withdrawn.
      const days = Array.from({ length: 60 }, (_, day) => at(demoOptions.epoch, 100 + day));
      const violations: string[] = [];
      let changed = 0;
      let retracted = 0;
      let previous = all(sut, days[0] as Date);
      for (const now of days.slice(1)) {
        const before = new Map(previous.map((p) => [p.numero, p]));
        const current = all(sut, now);
        for (const process of current) {
          const earlier = before.get(process.numero);
          if (earlier === undefined) continue;
          if (process.updatedAt === earlier.updatedAt) {
            if (JSON.stringify(process) !== JSON.stringify(earlier))
              violations.push(`${process.numero} changed silently`);
            continue;
          }
          if (process.updatedAt < earlier.updatedAt) violations.push(`${process.numero} went back in time`);
          changed++;
          const ids = new Map(process.events.map((event) => [event.id, JSON.stringify(event)]));
          for (const event of earlier.events) {
            const still = ids.get(event.id);
            if (still === undefined) {
              // Only provisional notes are ever withdrawn upstream.
              if (event.code !== 'NOTE') violations.push(`${event.id} vanished`);
              retracted++;
            } else if (still !== JSON.stringify(event)) {
              violations.push(`${event.id} was rewritten`);
            }
          }
        }
        if (before.size > current.length) violations.push(`processes vanished at ${now.toISOString()}`);
        previous = current;
      }
      expect(violations).toEqual([]);
      expect(changed).toBeGreaterThan(100);
      expect(retracted).toBeGreaterThan(0);
    });

    it('bumps updatedAt when a provisional note is withdrawn', () => {
      const epochMs = demoOptions.epoch.getTime();
      for (let index = 0; index < sut.processCount; index++) {
        const plan = sut.plan(index);
        const note = plan.events.find((event) => event.kind === 'PROVISIONAL_NOTE');
        if (note === undefined) continue;
        const visible = sut.processAt(index, new Date(epochMs + note.at * 60_000));
        const gone = sut.processAt(index, new Date(epochMs + note.until * 60_000));
        const noteId = visible?.events.find(
          (event) => event.code === 'NOTE' && event.description.startsWith('Aviso provisório'),
        )?.id;
        expect(noteId).toBeDefined();
        expect(gone?.events.some((event) => event.id === noteId)).toBe(false);
        expect(gone?.updatedAt).toBe(
          new Date(epochMs + note.until * 60_000).toISOString().replace('.000Z', 'Z'),
        );
        return;
      }
      throw new Error('the demo has no provisional note');
    });
  });

  describe('customs and free time', () => {
    const big = new OperationsSimulator({ ...demoOptions, processCount: 5_000, customerCount: 40 });
    const later = at(TODAY, 120);
    const processes = all(big, later);
    const eventAt = (process: OperationsProcess, code: FollowUpCode) =>
      process.events.find((event) => event.code === code)?.occurredAt ?? null;

    it('registers a declaration that agrees with the follow-up: type, number, channel and instants', () => {
      const violations: string[] = [];
      for (const process of processes) {
        const { customs } = process;
        const registered = eventAt(process, 'CUSTOMS_DECLARATION_REGISTERED');
        if (customs === null) {
          if (registered !== null) violations.push(`${process.numero}: declared in follow but no customs`);
          continue;
        }
        const expectedTypes = process.type === 'EXPORT' ? ['DUE'] : ['DI', 'DUIMP'];
        if (!expectedTypes.includes(customs.declarationType))
          violations.push(`${process.numero}: ${customs.declarationType}`);
        if (!isValidDeclarationNumber(customs.declarationType, customs.declarationNumber))
          violations.push(`${process.numero}: bad number ${customs.declarationNumber}`);
        if (customs.registeredAt !== registered) violations.push(`${process.numero}: registeredAt`);
        if (customs.channelAssignedAt !== eventAt(process, 'CUSTOMS_CHANNEL_ASSIGNED'))
          violations.push(`${process.numero}: channelAssignedAt`);
        if (customs.clearedAt !== eventAt(process, 'CUSTOMS_CLEARED'))
          violations.push(`${process.numero}: clearedAt`);
        if (customs.channel !== process.customsChannel) violations.push(`${process.numero}: two channels`);
        if ((customs.channel === null) !== (customs.channelAssignedAt === null))
          violations.push(`${process.numero}: channel`);
        const description = process.events.find(
          (event) => event.code === 'CUSTOMS_DECLARATION_REGISTERED',
        )?.description;
        if (!description?.includes(customs.declarationNumber))
          violations.push(`${process.numero}: description`);
        const seaImport = process.type === 'IMPORT' && process.mode === 'SEA';
        if (seaImport !== (customs.ceMercante !== null)) violations.push(`${process.numero}: CE-Mercante`);
        if (
          customs.ceMercante !== null &&
          !(
            CE_MERCANTE_FORMAT.test(customs.ceMercante.master) &&
            CE_MERCANTE_FORMAT.test(customs.ceMercante.house ?? '')
          )
        )
          violations.push(`${process.numero}: CE-Mercante format`);
      }
      expect(violations).toEqual([]);
      expect(processes.filter((process) => process.customs !== null).length).toBeGreaterThan(2_000);
    });

    it('uses every declaration type, DUIMP mostly for recent imports, and channels mostly green, gray rarely', () => {
      const declared = processes.flatMap((process) => (process.customs === null ? [] : [process]));
      const share = (list: OperationsProcess[], test: (process: OperationsProcess) => boolean) =>
        list.filter(test).length / list.length;
      const imports = declared.filter((process) => process.type === 'IMPORT');
      const recent = imports.filter((process) => process.numero.includes('-2026-'));
      const older = imports.filter((process) => process.numero.includes('-2025-'));
      expect(share(recent, (process) => process.customs?.declarationType === 'DUIMP')).toBeGreaterThan(0.7);
      expect(share(older, (process) => process.customs?.declarationType === 'DI')).toBeGreaterThan(0.6);
      expect(declared.some((process) => process.customs?.declarationType === 'DUE')).toBe(true);

      const assigned = declared.filter((process) => process.customsChannel !== null);
      const green = share(assigned, (process) => process.customsChannel === 'GREEN');
      const yellow = share(assigned, (process) => process.customsChannel === 'YELLOW');
      const red = share(assigned, (process) => process.customsChannel === 'RED');
      const gray = share(assigned, (process) => process.customsChannel === 'GRAY');
      expect(green).toBeGreaterThan(0.7);
      expect(yellow).toBeGreaterThan(red * 0.8);
      expect(red).toBeGreaterThan(gray);
      expect(gray).toBeGreaterThan(0);
      expect(gray).toBeLessThan(0.05);
      expect(assigned.some((process) => process.type === 'EXPORT' && process.customsChannel === 'GRAY')).toBe(
        false,
      );
    });

    it('gives free time to discharged import containers only, 5 to 14 days from discharge', () => {
      const violations: string[] = [];
      let withFreeTime = 0;
      for (const process of processes) {
        const discharged = eventAt(process, 'DISCHARGED');
        const expected = process.type === 'IMPORT' && process.containers.length > 0 && discharged !== null;
        if (expected !== (process.freeTimeEndsAt !== null))
          violations.push(`${process.numero}: summary free time`);
        if (process.freeTimeEndsAt === null || discharged === null) continue;
        withFreeTime++;
        const days = (Date.parse(process.freeTimeEndsAt) - Date.parse(discharged.slice(0, 10))) / DAY_MS + 1;
        if (days < 5 || days > 14) violations.push(`${process.numero}: ${days} days`);
        const containers = big.getProcessDetail(process.numero, later)?.containers ?? [];
        if (containers.some((container) => container.freeTimeEndsAt !== process.freeTimeEndsAt))
          violations.push(`${process.numero}: container free time`);
      }
      expect(violations).toEqual([]);
      expect(withFreeTime).toBeGreaterThan(500);
    });
  });

  describe('identifiers', () => {
    it('gives valid, normalised ISO 6346 container numbers', () => {
      const big = new OperationsSimulator({ ...demoOptions, processCount: 5_000, customerCount: 40 });
      const numbers: string[] = [];
      const misplaced: string[] = [];
      for (let index = 0; index < big.processCount; index++) {
        const plan = big.plan(index);
        numbers.push(...plan.containers);
        if ((plan.mode !== 'SEA' && plan.containers.length > 0) || plan.containers.length > 4)
          misplaced.push(plan.numero);
      }
      expect(numbers.length).toBeGreaterThan(2_500);
      expect(numbers.filter((number) => !isValidContainerNumber(number))).toEqual([]);
      expect(misplaced).toEqual([]);
    });

    it('gives Brazilian parties a CNPJ with valid check digits', () => {
      let checked = 0;
      for (let index = 0; index < sut.processCount; index++) {
        for (const party of sut.detailAt(index, at(TODAY, 30))?.parties ?? []) {
          if (party.country === 'BR') {
            expect(party.taxId).toMatch(/^\d{2}\.\d{3}\.\d{3}\/\d{4}-\d{2}$/);
            expect(isValidCnpj(party.taxId ?? '')).toBe(true);
            checked++;
          }
        }
      }
      expect(checked).toBeGreaterThan(sut.processCount);
    });

    it('finds a numero case-insensitively and nothing else', () => {
      const process = sut.processAt(42, TODAY);
      const numero = process?.numero ?? '';
      expect(sut.getProcess(numero.toLowerCase(), TODAY)).toEqual(process);
      expect(
        sut.indexOf(numero.replace(/-(\d{4})-/, (_m, year: string) => `-${Number(year) + 1}-`)),
      ).toBeNull();
      expect(
        sut.indexOf(numero.replace(/^IMP|^EXP/, (prefix) => (prefix === 'IMP' ? 'EXP' : 'IMP'))),
      ).toBeNull();
      expect(sut.indexOf('IMP-2026-999999')).toBeNull();
      expect(sut.getProcessDetail('nonsense', TODAY)).toBeNull();
    });
  });

  describe('customers', () => {
    it('assigns every process to one known customer; counts add up', () => {
      const ids = new Set(sut.customers().map((customer) => customer.id));
      const counts = new Map<string, number>();
      const processes = all(sut, at(TODAY, 30));
      for (const process of processes) {
        expect(ids.has(process.customer.id)).toBe(true);
        counts.set(process.customer.id, (counts.get(process.customer.id) ?? 0) + 1);
      }
      expect([...counts.values()].reduce((a, b) => a + b, 0)).toBe(processes.length);
      expect(processes.length).toBe(DEMO_SIMULATION.processCount);
    });

    it('gives the largest customer about a fifth of a large configuration', () => {
      const big = new OperationsSimulator({ ...demoOptions, processCount: 20_000, customerCount: 500 });
      let acmeCount = 0;
      for (let index = 0; index < big.processCount; index++) {
        if (big.plan(index).customerIndex === 0) acmeCount++;
      }
      const acme = acmeCount / big.processCount;
      expect(acme).toBeGreaterThan(0.17);
      expect(acme).toBeLessThan(0.23);
      expect(new Set(big.customers().map((customer) => customer.id)).size).toBe(500);
      expect(new Set(big.customers().map((customer) => customer.name)).size).toBe(500);
    });
  });

  describe('detail', () => {
    it('agrees with the summary at every moment', () => {
      for (const days of [40, 120, 150, 175]) {
        const moment = at(demoOptions.epoch, days);
        for (const process of all(sut, moment)) {
          const detail = sut.getProcessDetail(process.numero, moment);
          if (detail === null) throw new Error(`no detail for ${process.numero}`);
          expect(detail.numero).toBe(process.numero);
          expect(detail.containers.map((container) => container.number)).toEqual(process.containers);
          const { shipment } = detail;
          expect([shipment.type, shipment.mode, shipment.origin, shipment.destination]).toEqual([
            process.type,
            process.mode,
            process.origin,
            process.destination,
          ]);
          expect([shipment.shipmentDate, shipment.eta, shipment.arrivalDate]).toEqual([
            process.shipmentDate,
            process.eta,
            process.arrivalDate,
          ]);
          const first = detail.voyages[0];
          const last = detail.voyages[detail.voyages.length - 1];
          if (process.mode === 'ROAD') expect(detail.voyages).toEqual([]);
          if (first === undefined || last === undefined) continue;
          expect(first.loadPort).toEqual(process.origin);
          expect(last.dischargePort).toEqual(process.destination);
          expect(detail.voyages.map((voyage) => voyage.sequence)).toEqual(
            detail.voyages.map((_, i) => i + 1),
          );
          expect((first.atd ?? first.etd)?.slice(0, 10)).toBe(process.shipmentDate);
          expect(last.eta?.slice(0, 10)).toBe(process.eta);
          expect(last.ata?.slice(0, 10) ?? null).toBe(process.arrivalDate);
          const departed = process.events.some((event) => event.code === 'DEPARTED');
          expect(first.atd !== null).toBe(departed);
        }
      }
    });

    it('does not exist before the process does', () => {
      expect(sut.detailAt(DEMO_SIMULATION.processCount - 1, demoOptions.epoch)).toBeNull();
      expect(sut.processAt(DEMO_SIMULATION.processCount - 1, demoOptions.epoch)).toBeNull();
    });
  });

  describe('options', () => {
    it.each<[string, Partial<SimulationOptions>]>([
      ['too few customers', { customerCount: 2 }],
      ['no processes', { processCount: 0 }],
      ['too many processes', { processCount: 2_000_001 }],
      ['an epoch off the minute', { epoch: new Date('2026-01-01T00:00:30Z') }],
      ['a fractional seed', { seed: 1.5 }],
    ])('refuses %s', (_why, override) => {
      expect(() => new OperationsSimulator({ ...demoOptions, ...override })).toThrow(RangeError);
    });

    it('floors the demo epoch to UTC midnight, 150 days back', () => {
      expect(demoSimulationOptions(new Date('2026-03-14T23:59:59Z')).epoch.toISOString()).toBe(
        '2025-10-15T00:00:00.000Z',
      );
    });
  });
});

describe('position reports (the demo’s live changes)', () => {
  const positionsOf = (process: OperationsProcess) =>
    process.events.filter((event) => event.id.includes('-pos-'));
  const withReports = new OperationsSimulator(demoOptions);
  const withoutReports = new OperationsSimulator({ ...demoOptions, positionReportMinutes: undefined });
  const atSea = all(withReports, TODAY).filter(
    (process) => process.mode === 'SEA' && process.status === 'IN_TRANSIT',
  );

  it('shows one report per ship at sea, replaced every few minutes, and none elsewhere', () => {
    expect(atSea.length).toBeGreaterThan(10);
    const atSeaNumeros = new Set(atSea.map((process) => process.numero));
    for (const process of all(withReports, TODAY)) {
      expect(positionsOf(process)).toHaveLength(atSeaNumeros.has(process.numero) ? 1 : 0);
    }
    const [ship] = atSea;
    const later = withReports.getProcess(
      ship!.numero,
      new Date(TODAY.getTime() + DEMO_SIMULATION.positionReportMinutes * 60_000),
    );

    expect(positionsOf(later!)[0]?.id).not.toBe(positionsOf(ship!)[0]?.id);
    expect(Date.parse(later!.updatedAt)).toBeGreaterThan(Date.parse(ship!.updatedAt));
    expect(all(withoutReports, TODAY).flatMap(positionsOf)).toEqual([]);
  });

  it('lists several changed processes every few minutes', () => {
    const page = withReports.listChangedProcesses(
      { updatedSince: TODAY.toISOString(), cursor: null, limit: 500 },
      new Date(TODAY.getTime() + 5 * 60_000),
    );

    expect(page.items.length).toBeGreaterThanOrEqual(5);
  });
});

describe('ETA revisions (delays for the arrival questions)', () => {
  const simulator = new OperationsSimulator(demoOptions);
  const plans = Array.from({ length: simulator.config.processCount }, (_, index) => simulator.plan(index));
  const voyages = plans.filter((plan) => plan.mode !== 'ROAD' && plan.milestones.arrived !== NEVER);
  const lastLegOf = (plan: (typeof plans)[number]) => plan.legs[plan.legs.length - 1]!;
  const slips = voyages.map((plan) => lastLegOf(plan).ata - lastLegOf(plan).etaPlanned);

  it('makes arrivals late more often than early, by hours to days', () => {
    const late = slips.filter((slip) => slip > 0);
    const early = slips.filter((slip) => slip < 0);

    expect(late.length).toBeGreaterThan(2 * early.length);
    expect(early.length).toBeGreaterThan(0);
    expect(Math.min(...late)).toBeLessThan(DAY);
    expect(Math.max(...late)).toBeGreaterThanOrEqual(3 * DAY);
    expect(Math.max(...late)).toBeLessThanOrEqual(6 * DAY);
  });

  it('revises the ETA under way, each revision a new date, the last one the day of arrival', () => {
    const revised = voyages.filter((plan) => plan.etaRevisions.length > 0);
    expect(revised.length).toBeGreaterThan(voyages.length / 3);
    for (const plan of revised) {
      const { atd, ata } = lastLegOf(plan);
      const announcedAt = plan.milestones.etaRevised.filter((at) => at !== undefined);
      expect(announcedAt.every((at) => at > atd && at < ata)).toBe(true);
      expect(
        plan.etaRevisions.every((r) => Math.floor(r.previous / DAY) !== Math.floor(r.announced / DAY)),
      ).toBe(true);
      expect(Math.floor(etaAt(plan, ata)! / DAY)).toBe(Math.floor(ata / DAY));
    }
  });

  it('shows a revision as a new summary.eta with a note saying from when to when', () => {
    const plan = voyages.find((candidate) => candidate.etaRevisions.length > 1)!;
    const at = plan.milestones.etaRevised[1]!;
    const minute = (m: number) => new Date(simulator.config.epochMs + m * 60_000);
    const before = simulator.getProcess(plan.numero, minute(at - 1))!;
    const after = simulator.getProcess(plan.numero, minute(at))!;

    expect(after.eta).not.toBe(before.eta);
    const added = after.events.filter((event) => !before.events.some((seen) => seen.id === event.id));
    expect(added.map((event) => event.description)).toContainEqual(
      expect.stringMatching(
        /^Previsão de chegada em .+ alterada de \d\d\/\d\d\/\d{4} para \d\d\/\d\d\/\d{4}$/,
      ),
    );
    expect(Date.parse(after.updatedAt)).toBeGreaterThan(Date.parse(before.updatedAt));
  });

  it('moves several ETAs a day in the demo, the same ones for the same seed', () => {
    const etasAt = (sim: OperationsSimulator, date: Date) =>
      new Map(
        sim
          .listChangedProcesses({ updatedSince: '2000-01-01T00:00:00Z', cursor: null, limit: 1000 }, date)
          .items.map((process) => [process.numero, process.eta]),
      );
    const dayLater = new Date(TODAY.getTime() + DAY_MS);
    const moved = (sim: OperationsSimulator) => {
      const [start, end] = [etasAt(sim, TODAY), etasAt(sim, dayLater)];
      return [...end].filter(
        ([numero, eta]) =>
          start.get(numero) !== undefined && start.get(numero) !== null && start.get(numero) !== eta,
      );
    };

    expect(moved(simulator).length).toBeGreaterThanOrEqual(5);
    expect(moved(new OperationsSimulator(demoOptions))).toEqual(moved(simulator));
  });

  it('moves a few ETAs a minute in the demo, later more often than earlier: ships at sea estimate their arrival', () => {
    const etasAt = (minute: number) =>
      new Map(all(simulator, new Date(TODAY.getTime() + minute * 60_000)).map((p) => [p.numero, p.eta]));
    const minutes = 30;
    const moves: number[] = [];
    let previous = etasAt(0);
    for (let minute = 1; minute <= minutes; minute++) {
      const current = etasAt(minute);
      for (const [numero, eta] of current) {
        const before = previous.get(numero);
        if (before === undefined || before === null || eta === null || eta === before) continue;
        moves.push((Date.parse(eta) - Date.parse(before)) / DAY_MS);
      }
      previous = current;
    }
    const later = moves.filter((days) => days > 0);
    const earlier = moves.filter((days) => days < 0);

    expect(moves.length / minutes).toBeGreaterThanOrEqual(2);
    expect(later.length).toBeGreaterThan(2 * earlier.length);
    expect(earlier.length).toBeGreaterThan(0);
    expect(Math.max(...later)).toBeGreaterThanOrEqual(2);
  });

  it('shows the announced ETA where ships do not report (the bench’s data)', () => {
    const withoutReports = new OperationsSimulator({ ...demoOptions, positionReportMinutes: undefined });
    const now = withoutReports.minuteOf(TODAY);
    const dateOf = (minute: number) =>
      new Date(withoutReports.config.epochMs + minute * 60_000).toISOString().slice(0, 10);
    const atSea = plans.filter(
      ({ positionReports }) =>
        positionReports !== null && positionReports.from <= now && now < positionReports.until,
    );
    expect(atSea.length).toBeGreaterThan(10);
    for (const { index } of atSea) {
      expect(withoutReports.processAt(index, TODAY)?.eta).toBe(
        dateOf(etaAt(withoutReports.plan(index), now)!),
      );
    }
  });
});
