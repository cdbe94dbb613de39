import {
  InvalidQueryError,
  MAX_PAGE_LIMIT,
  OperationsSimulator,
  parseInstant,
} from '../simulation/operations-simulator.js';
import { planProcess, type ProcessPlan } from '../simulation/process-plan.js';
import { detailAt, etaShownAt, processAt } from '../simulation/process-view.js';
import { CHANNEL_NAMES } from '../simulation/reference-data.js';
import type { SimulationOptions } from '../simulation/simulation-options.js';
import type {
  ChangedProcessesPage,
  ChangedProcessesQuery,
  CustomsChannel,
  FollowUpCode,
  FollowUpEvent,
  OperationsProcess,
  OperationsProcessDetail,
  Place,
  ProcessType,
  TransportMode,
} from '../upstream/upstream-api.js';
import { ControlError, conflict, invalid, notFound } from './control-error.js';
import { bringForward, cancelPlan, copyPlan, nextStatusEvent, setEta, shiftFuture } from './plan-edits.js';
import type { TimeSource } from './sandbox-clock.js';

const MINUTE_MS = 60_000;
const SECOND_MS = 1000;

/** A process the control API has touched: it moves only by control calls from then on. */
interface ControlledProcess {
  plan: ProcessPlan;
  /** The plan's minute the process is shown at. */
  shownAt: number;
  updatedAtMs: number;
  added: FollowUpEvent[];
  retracted: Set<string>;
  /** When the channel was assigned again after its first parametrisation. */
  channelReassignedAt: string | null;
}

export interface NewProcess {
  customer: string;
  type: ProcessType;
  mode: TransportMode;
}

export interface NewEvent {
  code: FollowUpCode;
  occurredAt?: string;
  location?: Place | null;
  description?: string;
}

/** Whole-second instants, as the upstream API writes them. */
const instant = (ms: number): string => `${new Date(ms).toISOString().slice(0, 19)}Z`;
const brazilianDate = (ms: number): string => {
  const [year, month, day] = new Date(ms).toISOString().slice(0, 10).split('-');
  return `${day}/${month}/${year}`;
};

const DEFAULT_DESCRIPTION = 'Atualização registrada pela equipe de operações';

/**
 * The simulated operations system as the sandbox serves it: the simulation of a seed moving with
 * the sandbox clock, plus what the control API did. Each control change gives the process an
 * `updatedAt` strictly later than any before it (whole seconds, one more per change while the clock
 * stands still), so an incremental reader never misses one. Listeners hear the numeros of every change.
 */
export class Sandbox {
  private simulator: OperationsSimulator;
  private readonly controlled = new Map<string, ControlledProcess>();
  private created = 0;
  private lastChangeMs = 0;
  /** Since a reset, every process counts as changed at the reset. */
  private resetAtMs: number | null = null;
  private readonly listeners: Array<(numeros: string[]) => void> = [];

  constructor(
    private readonly options: SimulationOptions,
    private readonly clock: TimeSource,
  ) {
    this.simulator = new OperationsSimulator(options);
  }

  get seed(): number {
    return this.simulator.config.seed;
  }

  get processCount(): number {
    return this.simulator.processCount;
  }

  /** The simulation itself, for bulk reads that ignore control changes (benchmark loads). */
  get simulation(): OperationsSimulator {
    return this.simulator;
  }

  /** True for a process the control API touched: only control calls move it from then on. */
  isControlled(numero: string): boolean {
    return this.controlled.has(numero);
  }

  onChange(listener: (numeros: string[]) => void): void {
    this.listeners.push(listener);
  }

  // The upstream API.

  getProcess(numero: string): OperationsProcess | null {
    const normalized = numero.trim().toUpperCase();
    const record = this.controlled.get(normalized);
    if (record !== undefined) return this.viewOf(record);
    const process = this.simulator.getProcess(normalized, this.clock.now());
    return process === null ? null : this.afterReset(process);
  }

  getProcessDetail(numero: string): OperationsProcessDetail | null {
    const normalized = numero.trim().toUpperCase();
    const record = this.controlled.get(normalized);
    if (record !== undefined) return detailAt(record.plan, this.simulator.config, record.shownAt);
    return this.simulator.getProcessDetail(normalized, this.clock.now());
  }

  /**
   * Changed processes: the simulation's first (its own keyset cursor, prefixed `p`), then the
   * controlled ones by (updatedAt, numero) (cursor prefixed `c`). Throws {@link InvalidQueryError}.
   */
  listChangedProcesses(query: ChangedProcessesQuery): ChangedProcessesPage {
    const { updatedSince, cursor, limit } = query;
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE_LIMIT) {
      throw new InvalidQueryError('limit', `limit must be an integer between 1 and ${MAX_PAGE_LIMIT}`);
    }
    const sinceMs = updatedSince === null ? -Infinity : parseInstant(updatedSince);
    if (Number.isNaN(sinceMs)) {
      throw new InvalidQueryError('updatedSince', 'updatedSince must be an RFC 3339 instant with an offset');
    }
    if (cursor === null || cursor.startsWith('p')) {
      return this.simulatedPage(updatedSince, sinceMs, cursor === null ? null : cursor.slice(1), limit);
    }
    if (cursor.startsWith('c')) return this.controlledPage(sinceMs, decodeKey(cursor.slice(1)), limit);
    throw new InvalidQueryError('cursor', 'cursor is not one this sandbox issued');
  }

  // The control API.

  createProcess({ customer, type, mode }: NewProcess): OperationsProcess {
    const customerIndex = this.simulator.customers().findIndex(({ id }) => id === customer);
    if (customerIndex < 0) {
      const known = this.simulator.customers().map(({ id }) => id);
      throw invalid('customer', `customer must be one of ${known.join(', ')}`);
    }
    const openAt = this.minuteNow();
    let plan: ProcessPlan;
    // Some plans end in a cancellation; a created process is given one that runs to delivery.
    do {
      const index = this.simulator.processCount + this.created++;
      plan = planProcess(this.simulator.config, index, { openAt, type, mode, customerIndex });
    } while (plan.events.some((event) => event.kind === 'CANCELLED'));
    const record = this.newRecord(plan, openAt);
    this.controlled.set(plan.numero, record);
    return this.changed(record);
  }

  advance(numero: string): OperationsProcess {
    const record = this.take(numero);
    const { status } = this.viewOf(record);
    const position = nextStatusEvent(record.plan, record.shownAt, status);
    const next = position === null ? undefined : record.plan.events[position];
    if (position === null || next === undefined) {
      throw conflict(`${numero} is ${status}: its path has no next status`);
    }
    if (next.status === 'CANCELLED') {
      throw conflict(`${numero} is cancelled next in the simulation: cancel it instead`);
    }
    record.shownAt = bringForward(record.plan, position, record.shownAt, this.minuteNow());
    return this.changed(record);
  }

  addEvent(numero: string, event: NewEvent): { event: FollowUpEvent; process: OperationsProcess } {
    const record = this.take(numero);
    const occurredAtMs =
      event.occurredAt === undefined ? this.clock.now().getTime() : parseInstant(event.occurredAt);
    if (Number.isNaN(occurredAtMs))
      throw invalid('occurredAt', 'occurredAt must be an RFC 3339 instant with an offset');
    const added = this.appendEvent(
      record,
      event.code,
      event.description ?? DEFAULT_DESCRIPTION,
      occurredAtMs,
      event.location ?? null,
    );
    return { event: added, process: this.changed(record) };
  }

  retractEvent(numero: string, eventId: string): OperationsProcess {
    const record = this.take(numero);
    const visible = this.viewOf(record).events.some((event) => event.id === eventId);
    if (!visible) throw new ControlError(404, `${numero} has no event ${eventId}`);
    record.retracted.add(eventId);
    return this.changed(record);
  }

  setCustomsChannel(numero: string, channel: CustomsChannel): OperationsProcess {
    const record = this.take(numero);
    const { plan, shownAt } = record;
    if (plan.milestones.declared > shownAt) {
      throw conflict(`${numero} has no customs declaration registered yet: advance it first`);
    }
    if (plan.milestones.cleared <= shownAt) {
      throw conflict(`${numero} is already cleared: its channel can no longer change`);
    }
    plan.channel = channel;
    if (plan.milestones.channel <= shownAt) {
      const nowMs = this.clock.now().getTime();
      record.channelReassignedAt = instant(nowMs);
      this.appendEvent(
        record,
        'CUSTOMS_CHANNEL_ASSIGNED',
        `Parametrização revista: canal ${CHANNEL_NAMES[channel]}`,
        nowMs,
      );
    } else {
      const position = plan.events.findIndex((event) => event.kind === 'CHANNEL');
      record.shownAt = bringForward(plan, position, shownAt, this.minuteNow());
    }
    return this.changed(record);
  }

  moveEta(numero: string, eta: string): OperationsProcess {
    const record = this.take(numero);
    const { plan, shownAt } = record;
    const lastLeg = plan.legs[plan.legs.length - 1];
    if (lastLeg === undefined || plan.milestones.booked > shownAt) {
      throw conflict(`${numero} has no ETA before it is booked: advance it first`);
    }
    if (plan.milestones.arrived <= shownAt) throw conflict(`${numero} has already arrived`);
    const current = etaShownAt(plan, this.simulator.config, shownAt) ?? lastLeg.etaPlanned;
    const epochMs = this.simulator.config.epochMs;
    const currentMs = epochMs + current * MINUTE_MS;
    const dayMs = Date.parse(`${eta}T00:00:00Z`);
    const movedMs = dayMs + (currentMs - Math.floor(currentMs / 86_400_000) * 86_400_000);
    const moved = Math.round((movedMs - epochMs) / MINUTE_MS);
    if (moved === current) return this.viewOf(record);
    shiftFuture(plan, shownAt, moved - current);
    setEta(plan, shownAt, moved);
    const text = `Previsão de chegada em ${plan.destination.name} alterada de ${brazilianDate(currentMs)} para ${brazilianDate(movedMs)}`;
    this.appendEvent(record, 'NOTE', text, this.clock.now().getTime());
    return this.changed(record);
  }

  cancel(numero: string): OperationsProcess {
    const record = this.take(numero);
    const { status } = this.viewOf(record);
    if (status === 'DELIVERED' || status === 'CANCELLED')
      throw conflict(`${numero} is ${status}: it cannot be cancelled`);
    const at = Math.max(this.minuteNow(), record.shownAt + 1);
    cancelPlan(record.plan, record.shownAt, at, 0);
    record.shownAt = at;
    return this.changed(record);
  }

  /** Back to the data of `seed` (the same one by default): control changes and created processes go. */
  reset(seed = this.options.seed): void {
    const numeros = [...this.controlled.keys()];
    this.simulator = new OperationsSimulator({ ...this.options, seed });
    this.controlled.clear();
    this.created = 0;
    this.resetAtMs = this.nextChangeMs();
    this.notify(numeros);
  }

  // Inner workings.

  private take(numero: string): ControlledProcess {
    const normalized = numero.trim().toUpperCase();
    const existing = this.controlled.get(normalized);
    if (existing !== undefined) return existing;
    const index = this.simulator.indexOf(normalized);
    const now = this.clock.now();
    if (index === null || this.simulator.processAt(index, now) === null) throw notFound(numero);
    const record = this.newRecord(copyPlan(this.simulator.plan(index)), this.simulator.minuteOf(now));
    this.controlled.set(normalized, record);
    return record;
  }

  private newRecord(plan: ProcessPlan, shownAt: number): ControlledProcess {
    return { plan, shownAt, updatedAtMs: 0, added: [], retracted: new Set(), channelReassignedAt: null };
  }

  /** An event the control API adds; added events keep their place once retracted, so ids never repeat. */
  private appendEvent(
    record: ControlledProcess,
    code: FollowUpCode,
    description: string,
    atMs: number,
    location: Place | null = null,
  ): FollowUpEvent {
    const sequence = String(record.added.length + 1).padStart(2, '0');
    const event = {
      id: `evt_${record.plan.numero.toLowerCase()}-c${sequence}`,
      code,
      description,
      occurredAt: instant(atMs),
      location,
    };
    record.added.push(event);
    return event;
  }

  private changed(record: ControlledProcess): OperationsProcess {
    record.updatedAtMs = this.nextChangeMs();
    this.notify([record.plan.numero]);
    return this.viewOf(record);
  }

  /** The clock's second, or one second after the last change when the clock has not moved on. */
  private nextChangeMs(): number {
    const nowMs = Math.floor(this.clock.now().getTime() / SECOND_MS) * SECOND_MS;
    this.lastChangeMs = Math.max(nowMs, this.lastChangeMs + SECOND_MS);
    return this.lastChangeMs;
  }

  private notify(numeros: string[]): void {
    for (const listener of this.listeners) listener(numeros);
  }

  private minuteNow(): number {
    return this.simulator.minuteOf(this.clock.now());
  }

  private viewOf(record: ControlledProcess): OperationsProcess {
    const base = processAt(record.plan, this.simulator.config, record.shownAt);
    if (base === null) throw new Error(`${record.plan.numero} is shown before it opened`);
    const events = [...base.events, ...record.added].filter((event) => !record.retracted.has(event.id));
    const customs =
      base.customs !== null && record.channelReassignedAt !== null
        ? { ...base.customs, channelAssignedAt: record.channelReassignedAt }
        : base.customs;
    return { ...base, updatedAt: instant(record.updatedAtMs), customs, events };
  }

  private afterReset(process: OperationsProcess): OperationsProcess {
    if (this.resetAtMs === null || Date.parse(process.updatedAt) >= this.resetAtMs) return process;
    return { ...process, updatedAt: instant(this.resetAtMs) };
  }

  private simulatedPage(
    updatedSince: string | null,
    sinceMs: number,
    cursor: string | null,
    limit: number,
  ): ChangedProcessesPage {
    // Everything counts as changed at a reset: a reader that saw the data before it gets all again.
    const everything = this.resetAtMs !== null && sinceMs < this.resetAtMs;
    const page = this.simulator.listChangedProcesses(
      { updatedSince: everything ? null : updatedSince, cursor, limit },
      this.clock.now(),
    );
    const items = page.items
      .filter((process) => !this.controlled.has(process.numero))
      .map((process) => this.afterReset(process));
    if (page.nextCursor !== null) return { items, nextCursor: `p${page.nextCursor}` };
    const anyControlled = [...this.controlled.values()].some((record) => record.updatedAtMs > sinceMs);
    return { items, nextCursor: anyControlled ? `c${encodeKey(null)}` : null };
  }

  private controlledPage(sinceMs: number, after: ControlKey | null, limit: number): ChangedProcessesPage {
    const keys = [...this.controlled.entries()]
      .map(([numero, record]) => ({ numero, ms: record.updatedAtMs, record }))
      .filter(
        ({ ms, numero }) =>
          ms > sinceMs && (after === null || ms > after.ms || (ms === after.ms && numero > after.numero)),
      )
      .sort((a, b) => a.ms - b.ms || (a.numero < b.numero ? -1 : 1));
    const page = keys.slice(0, limit);
    const last = page[page.length - 1];
    return {
      items: page.map(({ record }) => this.viewOf(record)),
      nextCursor:
        keys.length > limit && last !== undefined
          ? `c${encodeKey({ ms: last.ms, numero: last.numero })}`
          : null,
    };
  }
}

interface ControlKey {
  ms: number;
  numero: string;
}

function encodeKey(key: ControlKey | null): string {
  return Buffer.from(key === null ? '' : `${key.ms}:${key.numero}`, 'latin1').toString('base64url');
}

function decodeKey(text: string): ControlKey | null {
  const decoded = /^[A-Za-z0-9_-]{0,80}$/.test(text)
    ? Buffer.from(text, 'base64url').toString('latin1')
    : null;
  if (decoded === '') return null;
  const match = decoded === null ? null : /^(\d{1,16}):([A-Z0-9-]{1,40})$/.exec(decoded);
  if (match === null) throw new InvalidQueryError('cursor', 'cursor is not one this sandbox issued');
  return { ms: Number(match[1]), numero: match[2] ?? '' };
}
