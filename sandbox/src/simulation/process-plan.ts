import { iso6346CheckDigit } from './iso6346.js';
import type {
  CustomsChannel,
  FollowUpCode,
  ProcessStatus,
  ProcessType,
  TransportMode,
} from '../upstream/upstream-api.js';
import type { Customer, Place } from '../upstream/upstream-api.js';
import { Rng, streamSeed } from './prng.js';
import type { DeclarationKind } from './siscomex-numbers.js';
import {
  AIR_HUBS,
  AIRLINES,
  BR_AIRPORTS,
  BR_INLAND_CITIES,
  BR_ROAD_CITIES,
  BR_SEAPORTS,
  CANCELLATION_REASONS,
  CUSTOMER_NAME_PREFIXES,
  CUSTOMER_NAME_SECTORS,
  CUSTOMS_REQUIREMENTS,
  FOREIGN_AIRPORTS,
  FOREIGN_ROAD_CITIES,
  FOREIGN_SEAPORTS,
  LEASING_OWNER_CODES,
  NAMED_CUSTOMERS,
  PROVISIONAL_NOTES,
  ROAD_CARRIERS,
  ROUTINE_NOTES,
  SEA_HUBS,
  SHIPPING_LINES,
  TRANSIT_DAYS,
  TRANSSHIPMENT_CHANCE,
  type Airline,
  type ForeignPlace,
  type Region,
  type RoadCarrier,
  type ShippingLine,
} from './reference-data.js';
import type { SimulationConfig } from './simulation-options.js';

/**
 * The whole life of one process, planned once from (seed, index) and independent of the clock:
 * what the clock changes is only which planned events are visible (see process-view.ts). Times
 * are whole minutes after the epoch. Strings that only descriptions need are built later, so
 * planning stays cheap enough to scan a million processes.
 */

export const HOUR = 60;
export const DAY = 1440;
/** "Never", for a milestone that is not in the plan. */
export const NEVER = Number.MAX_SAFE_INTEGER;

/** Independent random streams about one entity. */
export const STREAM = { core: 0, detail: 1, customer: 2, eta: 3, positionReports: 4 } as const;

export type EventKind =
  | 'OPENED'
  | 'BOOKED'
  | 'DOCUMENTS'
  | 'GATE_IN'
  | 'CARGO_RECEIVED'
  | 'LOADED'
  | 'DEPARTED'
  | 'TRANSSHIPMENT'
  | 'ARRIVED'
  | 'DISCHARGED'
  | 'DECLARATION'
  | 'CHANNEL'
  | 'REQUIREMENT'
  | 'CLEARED'
  | 'GATE_OUT'
  | 'DELIVERED'
  | 'CANCELLED'
  | 'ROUTINE_NOTE'
  | 'ETA_REVISED'
  | 'PROVISIONAL_NOTE';

export const EVENT_CODES: Readonly<Record<EventKind, FollowUpCode>> = {
  OPENED: 'PROCESS_OPENED',
  BOOKED: 'BOOKING_CONFIRMED',
  DOCUMENTS: 'DOCUMENTS_RECEIVED',
  GATE_IN: 'GATE_IN',
  CARGO_RECEIVED: 'CARGO_RECEIVED',
  LOADED: 'LOADED',
  DEPARTED: 'DEPARTED',
  TRANSSHIPMENT: 'TRANSSHIPMENT',
  ARRIVED: 'ARRIVED',
  DISCHARGED: 'DISCHARGED',
  DECLARATION: 'CUSTOMS_DECLARATION_REGISTERED',
  CHANNEL: 'CUSTOMS_CHANNEL_ASSIGNED',
  REQUIREMENT: 'NOTE',
  CLEARED: 'CUSTOMS_CLEARED',
  GATE_OUT: 'GATE_OUT',
  DELIVERED: 'DELIVERED',
  CANCELLED: 'CANCELLED',
  ROUTINE_NOTE: 'NOTE',
  ETA_REVISED: 'NOTE',
  PROVISIONAL_NOTE: 'NOTE',
};

export interface PlannedEvent {
  kind: EventKind;
  /** Minute it occurs. */
  at: number;
  /** Minute it is retracted upstream ({@link NEVER} for a permanent event). */
  until: number;
  /** The status the process enters with this event, if any. */
  status: ProcessStatus | null;
  /** A container index, a leg index or a text index, by kind. */
  ref: number;
}

/** A new ETA the operations system announces while the last leg is under way. */
export interface EtaRevision {
  /** The ETA before it (minute). */
  previous: number;
  /** The ETA announced (minute), as its note says. */
  announced: number;
  /** The ETA in force from then on: the announced one unless the control API moved it since. */
  eta: number;
}

export interface Leg {
  from: Place;
  to: Place;
  /** Vessel (SEA) or null (AIR: the flight is the voyage number). */
  vessel: string | null;
  voyageNumber: string;
  carrier: string;
  etd: number;
  atd: number;
  /** The first ETA announced; later ones are the plan's {@link EtaRevision}s. */
  etaPlanned: number;
  ata: number;
}

/** When things become known, from the planned (and possibly cancelled) events. */
export interface Milestones {
  booked: number;
  containersKnown: number;
  firstDeparture: number;
  arrived: number;
  discharged: number;
  declared: number;
  channel: number;
  cleared: number;
  /** When each ETA revision is announced (by revision index; a hole for one never announced). */
  etaRevised: number[];
  legDeparted: number[];
  legArrived: number[];
}

export interface ProcessPlan {
  index: number;
  numero: string;
  type: ProcessType;
  mode: TransportMode;
  customerIndex: number;
  openAt: number;
  origin: Place;
  destination: Place;
  /** Where the importer takes delivery (imports) or the destination (exports). */
  deliveryPlace: Place;
  /** The Brazilian end: where customs happens. */
  brazilianPlace: Place;
  foreignCountry: string;
  foreignRegion: Region;
  line: ShippingLine | null;
  airline: Airline | null;
  roadCarrier: RoadCarrier | null;
  truckPlate: string | null;
  bookingNumber: string;
  legs: Leg[];
  /** The last leg's ETA revisions, in the order announced. */
  etaRevisions: EtaRevision[];
  containers: string[];
  channel: CustomsChannel;
  declaration: { kind: DeclarationKind; sequence: string };
  /** Sea imports only: the master and house CE-Mercante numbers. */
  ceMercante: { master: string; house: string } | null;
  customerReference: string | null;
  /** Sorted by `at` (all distinct); the array position + 1 is the stable sequence. */
  events: PlannedEvent[];
  milestones: Milestones;
  /**
   * Sea voyages with reports: one every `every` minutes from departure until arrival, each with the
   * ship's own estimate of its arrival while `estimatesEta` (until the control API sets the ETA).
   */
  positionReports: { every: number; from: number; until: number; estimatesEta: boolean } | null;
}

/** Customer skew: acme ~20% on large configurations, more on small ones. */
function pickCustomer(rng: Rng, customerCount: number): number {
  const roll = rng.next();
  if (roll < 0.2) return 0;
  if (roll < 0.32) return 1;
  if (roll < 0.4) return 2;
  return Math.floor(((roll - 0.4) / 0.6) * customerCount);
}

export interface SimulatedCustomer extends Customer {
  /** 8-digit CNPJ base of the headquarters. */
  cnpjBase: string;
}

export function customerAt(config: SimulationConfig, index: number): SimulatedCustomer {
  const named = NAMED_CUSTOMERS[index];
  if (named !== undefined) {
    return { ...named };
  }
  const prefixes = CUSTOMER_NAME_PREFIXES.length;
  const sectors = CUSTOMER_NAME_SECTORS.length;
  const generated = index - NAMED_CUSTOMERS.length;
  const prefix = CUSTOMER_NAME_PREFIXES[generated % prefixes] ?? '';
  const sector = CUSTOMER_NAME_SECTORS[Math.floor(generated / prefixes) % sectors] ?? '';
  const series = Math.floor(generated / (prefixes * sectors));
  const rng = new Rng(streamSeed(config.seed, index, STREAM.customer));
  const suffix = rng.chance(0.7) ? 'Ltda' : 'S.A.';
  return {
    id: `cust-${String(index + 1).padStart(5, '0')}`,
    name: `${prefix} ${sector}${series > 0 ? ` ${series + 1}` : ''} ${suffix}`,
    cnpjBase: `${rng.int(1, 9)}${rng.digits(7)}`,
  };
}

function mercosulPlate(rng: Rng): string {
  const letters = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
  const letter = (): string => letters.charAt(rng.int(0, 25));
  return `${letter()}${letter()}${letter()}${rng.int(0, 9)}${letter()}${rng.digits(2)}`;
}

function containerNumbers(rng: Rng, line: ShippingLine, count: number): string[] {
  const numbers: string[] = [];
  for (let i = 0; i < count; i++) {
    const owner = rng.chance(0.7) ? rng.pick(line.ownerCodes) : rng.pick(LEASING_OWNER_CODES);
    const first10 = `${owner}${rng.digits(6)}`;
    const number = `${first10}${iso6346CheckDigit(first10)}`;
    if (!numbers.includes(number)) {
      numbers.push(number);
    }
  }
  return numbers;
}

function voyageNumber(rng: Rng, vessel: string): string {
  const words = vessel.split(' ');
  const word = words[words.length - 1] ?? 'XX';
  return `${word.slice(0, 2)}${rng.digits(3)}${rng.pick(['W', 'E', 'N', 'S'])}`;
}

interface Route {
  origin: Place;
  destination: Place;
  brazilianPlace: Place;
  foreign: ForeignPlace;
}

function pickRoute(rng: Rng, type: ProcessType, mode: TransportMode): Route {
  const brazilian = rng.pick(mode === 'SEA' ? BR_SEAPORTS : mode === 'AIR' ? BR_AIRPORTS : BR_ROAD_CITIES);
  const foreign = rng.pick(
    mode === 'SEA' ? FOREIGN_SEAPORTS : mode === 'AIR' ? FOREIGN_AIRPORTS : FOREIGN_ROAD_CITIES,
  );
  const foreignPlace: Place = { code: foreign.code, name: foreign.name };
  return type === 'IMPORT'
    ? { origin: foreignPlace, destination: brazilian, brazilianPlace: brazilian, foreign }
    : { origin: brazilian, destination: foreignPlace, brazilianPlace: brazilian, foreign };
}

/** Stops between origin and destination: one hub at most. */
function planStops(rng: Rng, mode: TransportMode, route: Route): Place[] {
  const region = route.foreign.region;
  if (mode === 'ROAD' || !rng.chance(mode === 'SEA' ? TRANSSHIPMENT_CHANCE[region] : 0.2)) {
    return [route.origin, route.destination];
  }
  const hubs = (mode === 'SEA' ? SEA_HUBS : AIR_HUBS)[region].filter(
    (hub) => hub.code !== route.origin.code && hub.code !== route.destination.code,
  );
  return hubs.length === 0
    ? [route.origin, route.destination]
    : [route.origin, rng.pick(hubs), route.destination];
}

function transitMinutes(rng: Rng, mode: TransportMode, region: Region): number {
  if (mode === 'ROAD') {
    return rng.int(2 * DAY, 6 * DAY);
  }
  const [min, max] = TRANSIT_DAYS[region][mode === 'SEA' ? 'sea' : 'air'];
  return rng.int(min * DAY, max * DAY + 12 * HOUR);
}

/** Customs durations by channel: green is hours, gray can take weeks. */
const CLEARANCE_MINUTES: Readonly<Record<CustomsChannel, [number, number]>> = {
  GREEN: [4 * HOUR, 2 * DAY],
  YELLOW: [2 * DAY, 5 * DAY],
  RED: [4 * DAY, 10 * DAY],
  GRAY: [10 * DAY, 25 * DAY],
};

/**
 * Parametrisation as Receita Federal's statistics show it: most declarations green, some
 * yellow, few red, gray rare (and only for imports: the anti-fraud procedure).
 */
function pickChannel(rng: Rng, type: ProcessType): CustomsChannel {
  const roll = rng.next();
  if (roll < 0.8) return 'GREEN';
  if (roll < 0.9) return 'YELLOW';
  if (roll < 0.98 || type === 'EXPORT') return 'RED';
  return 'GRAY';
}

/** DUIMP replaces DI: most imports opened from 2026 on are DUIMPs, most earlier ones DIs. */
const DUIMP_SHARE = { before2026: 0.25, from2026: 0.85 } as const;

function pickDeclaration(rng: Rng, type: ProcessType, openYear: number): ProcessPlan['declaration'] {
  if (type === 'EXPORT') return { kind: 'DUE', sequence: rng.digits(10) };
  return rng.chance(openYear >= 2026 ? DUIMP_SHARE.from2026 : DUIMP_SHARE.before2026)
    ? { kind: 'DUIMP', sequence: rng.digits(10) }
    : { kind: 'DI', sequence: rng.digits(7) };
}

/** 15 digits: the issuing unit (15, Santos), the two-digit year, the sequence. */
function ceMercanteNumber(rng: Rng, year: number): string {
  return `15${String(year).slice(2)}05${rng.digits(9)}`;
}

/**
 * Numbers grow with opening time, as in a real system, and the business grows: the opening rate
 * rises linearly to 1.5 times the average at the end of the window, so more is in motion lately.
 */
function openMinute(config: SimulationConfig, index: number, rng: Rng): number {
  const fraction = (index + rng.next()) / config.processCount;
  // Inverse of the cumulative share (x + x²) / 2 of a density proportional to 1 + 2x.
  const x = (Math.sqrt(1 + 8 * fraction) - 1) / 2;
  return Math.floor(x * config.openWindowMinutes);
}

/** When process `index` opens, without planning the rest of it. */
export function openMinuteOf(config: SimulationConfig, index: number): number {
  return openMinute(config, index, new Rng(streamSeed(config.seed, index, STREAM.core)));
}

/** One process's plan being drawn: the main chain of events, each strictly after the previous one. */
class Planner {
  private readonly events: PlannedEvent[] = [];
  private readonly legs: Leg[];
  private t: number;

  constructor(
    private readonly rng: Rng,
    /** ETA revisions draw from a stream of their own. */
    private readonly etaRng: Rng,
    private readonly facts: ProcessPlan,
    private readonly stops: readonly Place[],
  ) {
    this.t = facts.openAt;
    this.legs = facts.legs;
  }

  /** The whole timeline, sorted, with notes and perhaps a cancellation. */
  plan(): PlannedEvent[] {
    const { openAt, type } = this.facts;
    this.at('OPENED', openAt, 'OPEN');
    this.after('BOOKED', 6 * HOUR, 6 * DAY, 'BOOKED');
    if (type === 'IMPORT') {
      this.cargoReady(2 * DAY, 10 * DAY);
      this.voyage();
      this.after('DECLARATION', 1 * DAY, 5 * DAY, 'CUSTOMS_CLEARANCE');
      this.customs();
      this.facts.containers.forEach((_, c) =>
        c === 0
          ? this.after('GATE_OUT', 1 * DAY, 4 * DAY, null, c)
          : this.after('GATE_OUT', HOUR, DAY, null, c),
      );
      this.after('DELIVERED', 4 * HOUR, 3 * DAY, 'DELIVERED');
    } else {
      this.after('DOCUMENTS', 4 * HOUR, 3 * DAY);
      this.cargoReady(1 * DAY, 6 * DAY);
      this.after('DECLARATION', 4 * HOUR, 2 * DAY, 'CUSTOMS_CLEARANCE');
      this.customs();
      this.voyage();
      this.after('DELIVERED', 2 * DAY, 6 * DAY, 'DELIVERED');
    }
    this.addNotes();
    this.events.sort(byTime);
    return this.rng.chance(0.05) ? cancel(this.rng, this.events) : this.events;
  }

  private cargoReady(min: number, max: number): void {
    const { containers, mode } = this.facts;
    if (containers.length === 0) {
      this.after('CARGO_RECEIVED', mode === 'SEA' ? min : 1 * DAY, mode === 'SEA' ? max : 5 * DAY);
      return;
    }
    containers.forEach((_, c) =>
      c === 0 ? this.after('GATE_IN', min, max, null, c) : this.after('GATE_IN', HOUR, DAY, null, c),
    );
  }

  private customs(): void {
    const { channel } = this.facts;
    this.after('CHANNEL', 30, 20 * HOUR);
    if (channel !== 'GREEN') {
      this.after('REQUIREMENT', 2 * HOUR, 2 * DAY, null, this.rng.int(0, CUSTOMS_REQUIREMENTS.length - 1));
    }
    const [min, max] = CLEARANCE_MINUTES[channel];
    this.after('CLEARED', min, max, 'CLEARED');
  }

  private voyage(): void {
    const { rng, stops } = this;
    const { mode, type, line, airline, roadCarrier, truckPlate, foreignRegion } = this.facts;
    if (mode !== 'ROAD') {
      // An export waits for its vessel after clearance; an import loads soon after gate-in.
      this.after('LOADED', type === 'EXPORT' ? 1 * DAY : 6 * HOUR, type === 'EXPORT' ? 4 * DAY : 2 * DAY);
    }
    const transit = transitMinutes(rng, mode, foreignRegion);
    const legCount = stops.length - 1;
    for (let k = 0; k < legCount; k++) {
      const atd =
        k === 0
          ? this.after('DEPARTED', 2 * HOUR, 18 * HOUR, 'IN_TRANSIT', k)
          : this.after(
              'DEPARTED',
              mode === 'SEA' ? 1 * DAY : 4 * HOUR,
              mode === 'SEA' ? 6 * DAY : 30 * HOUR,
              null,
              k,
            );
      const legTransit = legCount === 1 ? transit : Math.floor(transit * (k === 0 ? 0.6 : 0.4));
      const ata = atd + Math.max(HOUR, legTransit);
      const vessel = line !== null ? rng.pick(line.vessels) : null;
      this.legs.push({
        from: stops[k] as Place,
        to: stops[k + 1] as Place,
        vessel,
        voyageNumber:
          vessel !== null
            ? voyageNumber(rng, vessel)
            : airline !== null
              ? `${airline.iata}${rng.int(100, 9899)}`
              : (truckPlate ?? ''),
        carrier: line?.name ?? airline?.name ?? roadCarrier?.name ?? '',
        etd: atd,
        atd,
        etaPlanned: ata,
        ata,
      });
      if (k < legCount - 1) {
        this.at('TRANSSHIPMENT', ata, null, k + 1);
      }
    }
    const first = this.legs[0] as Leg;
    const last = this.legs[legCount - 1] as Leg;
    // Sailings slip: the planned departure (shown until it happens) is sometimes earlier.
    first.etd = first.atd - (rng.chance(0.3) ? rng.int(1 * DAY, 3 * DAY) : 0);
    this.reviseEta(last);
    this.at('ARRIVED', last.ata, 'ARRIVED');
    this.after('DISCHARGED', 4 * HOUR, 36 * HOUR);
  }

  /**
   * Where the last leg really arrives against its first ETA, and the new ETAs announced under way.
   * Vessels and flights run late more often than early: late by hours to days (more than half),
   * early by hours to a couple of days (one in six), on time otherwise. A long voyage is revised
   * every few days, each revision closer to the real arrival (noise shrinking), the last one exact;
   * a revision that keeps the ETA's date is not announced.
   */
  private reviseEta(last: Leg): void {
    const { mode } = this.facts;
    if (mode === 'ROAD') return;
    const rng = this.etaRng;
    const sea = mode === 'SEA';
    const roll = rng.next();
    const slip =
      roll < 0.55
        ? rng.int(sea ? 6 * HOUR : 2 * HOUR, sea ? 6 * DAY : 20 * HOUR)
        : roll < 0.72
          ? -rng.int(2 * HOUR, sea ? 2 * DAY : 10 * HOUR)
          : 0;
    last.etaPlanned = last.ata - slip;
    if (slip === 0) return;
    const voyage = last.ata - last.atd;
    const count = Math.max(1, Math.min(12, Math.round(voyage / (sea ? 2 * DAY : 8 * HOUR))));
    let previous = last.etaPlanned;
    for (let k = 1; k <= count; k++) {
      const progress = k / count;
      const noise =
        k === count ? 0 : Math.round(rng.int(-6 * HOUR, sea ? 18 * HOUR : 4 * HOUR) * (1 - progress));
      const eta = Math.round(last.etaPlanned + slip * progress + noise);
      const at = last.atd + Math.floor(voyage * (0.1 + (0.8 * (k - 1 + rng.next())) / count));
      if (Math.floor(eta / DAY) === Math.floor(previous / DAY)) continue;
      this.facts.etaRevisions.push({ previous, announced: eta, eta });
      this.at('ETA_REVISED', at, null, this.facts.etaRevisions.length - 1);
      previous = eta;
    }
  }

  /** Notes fall between the chain's events, each on a minute of its own. */
  private addNotes(): void {
    const { rng } = this;
    const { openAt, type } = this.facts;
    const { legs } = this;
    const lastAt = this.t;
    const free = (from: number, to: number): number => {
      let minute = from + 1 + Math.floor(rng.next() * Math.max(1, to - from - 1));
      while (this.events.some((event) => event.at === minute)) minute++;
      return minute;
    };
    const firstLeg = legs[0];
    const lastLeg = legs[legs.length - 1];
    if (type === 'IMPORT' && firstLeg !== undefined && lastLeg !== undefined) {
      this.note('DOCUMENTS', free(firstLeg.atd, lastLeg.ata), NEVER, 0);
    }
    const routineNotes = rng.int(1, 4);
    for (let n = 0; n < routineNotes; n++) {
      this.note('ROUTINE_NOTE', free(openAt, lastAt), NEVER, rng.int(0, ROUTINE_NOTES[type].length - 1));
    }
    if (rng.chance(0.1)) {
      // A provisional note the operations system withdraws later: an upstream deletion.
      const at = free(openAt, lastAt);
      this.note(
        'PROVISIONAL_NOTE',
        at,
        at + rng.int(6 * HOUR, 3 * DAY),
        rng.int(0, PROVISIONAL_NOTES.length - 1),
      );
    }
  }

  private note(kind: EventKind, at: number, until: number, ref: number): void {
    this.events.push({ kind, at, until, status: null, ref });
  }

  /** The next chain event, `min`..`max` minutes after the previous one. */
  private after(
    kind: EventKind,
    min: number,
    max: number,
    status: ProcessStatus | null = null,
    ref = 0,
  ): number {
    return this.at(kind, this.t + this.rng.int(Math.max(1, min), Math.max(1, max)), status, ref);
  }

  private at(kind: EventKind, at: number, status: ProcessStatus | null = null, ref = 0): number {
    const when = this.events.length === 0 ? at : Math.max(at, this.t + 1);
    this.events.push({ kind, at: when, until: NEVER, status, ref });
    this.t = when;
    return when;
  }
}

/** The ETA in force at `now` (minute): the last revision announced by then, or the first ETA. */
export function etaAt(plan: ProcessPlan, now: number): number | null {
  const lastLeg = plan.legs[plan.legs.length - 1];
  if (lastLeg === undefined) return null;
  let eta = lastLeg.etaPlanned;
  plan.milestones.etaRevised.forEach((at, k) => {
    const revision = plan.etaRevisions[k];
    if (at <= now && revision !== undefined) eta = revision.eta;
  });
  return eta;
}

function byTime(a: PlannedEvent, b: PlannedEvent): number {
  return a.at - b.at;
}

function yearOf(config: SimulationConfig, minute: number): number {
  return new Date(config.epochMs + minute * 60_000).getUTCFullYear();
}

/** What a process created on request fixes instead of drawing (the draws still happen, in order). */
export interface PlanOverrides {
  openAt?: number;
  type?: ProcessType;
  mode?: TransportMode;
  customerIndex?: number;
}

export function planProcess(
  config: SimulationConfig,
  index: number,
  overrides: PlanOverrides = {},
): ProcessPlan {
  const rng = new Rng(streamSeed(config.seed, index, STREAM.core));
  const drawnOpenAt = openMinute(config, index, rng);
  const openAt = overrides.openAt ?? drawnOpenAt;
  const drawnType: ProcessType = rng.chance(0.65) ? 'IMPORT' : 'EXPORT';
  const type = overrides.type ?? drawnType;
  const modeRoll = rng.next();
  const mode: TransportMode = overrides.mode ?? (modeRoll < 0.6 ? 'SEA' : modeRoll < 0.85 ? 'AIR' : 'ROAD');
  const drawnCustomer = pickCustomer(rng, config.customerCount);
  const customerIndex = overrides.customerIndex ?? drawnCustomer;
  const route = pickRoute(rng, type, mode);
  const stops = planStops(rng, mode, route);
  const line = mode === 'SEA' ? rng.pick(SHIPPING_LINES) : null;
  const airline = mode === 'AIR' ? rng.pick(AIRLINES) : null;
  const roadCarrier = mode === 'ROAD' ? rng.pick(ROAD_CARRIERS) : null;
  const truckPlate = mode === 'ROAD' ? mercosulPlate(rng) : null;
  const containerCount = mode === 'SEA' ? (rng.chance(0.1) ? 0 : rng.int(1, 4)) : 0;
  const plan: ProcessPlan = {
    index,
    numero: `${type === 'IMPORT' ? 'IMP' : 'EXP'}-${yearOf(config, openAt)}-${String(index + 1).padStart(6, '0')}`,
    type,
    mode,
    customerIndex,
    openAt,
    origin: route.origin,
    destination: route.destination,
    brazilianPlace: route.brazilianPlace,
    foreignCountry: route.foreign.code.slice(0, 2),
    foreignRegion: route.foreign.region,
    line,
    airline,
    roadCarrier,
    truckPlate,
    containers: line === null ? [] : containerNumbers(rng, line, containerCount),
    bookingNumber:
      line !== null
        ? `${line.bookingPrefix}${rng.digits(7)}`
        : airline !== null
          ? `${airline.iata}${rng.digits(8)}`
          : `COL${rng.digits(6)}`,
    channel: pickChannel(rng, type),
    declaration: pickDeclaration(rng, type, yearOf(config, openAt)),
    ceMercante:
      type === 'IMPORT' && mode === 'SEA'
        ? {
            master: ceMercanteNumber(rng, yearOf(config, openAt)),
            house: ceMercanteNumber(rng, yearOf(config, openAt)),
          }
        : null,
    customerReference: rng.chance(0.1)
      ? null
      : `${rng.pick(['PO-', 'PED-', 'REF ', 'OC-'])}${rng.int(1000, 99999)}`,
    deliveryPlace: type === 'IMPORT' ? rng.pick(BR_INLAND_CITIES) : route.destination,
    legs: [],
    etaRevisions: [],
    events: [],
    milestones: NO_MILESTONES,
    positionReports: null,
  };
  plan.events = new Planner(rng, new Rng(streamSeed(config.seed, index, STREAM.eta)), plan, stops).plan();
  plan.milestones = milestonesOf(plan.events, plan.legs.length);
  const { firstDeparture, arrived } = plan.milestones;
  // A ship reports until it arrives, or until the process is cancelled at sea.
  const voyageEnd = arrived !== NEVER ? arrived : (plan.events[plan.events.length - 1]?.at ?? NEVER);
  if (
    config.positionReportMinutes !== null &&
    mode === 'SEA' &&
    voyageEnd !== NEVER &&
    firstDeparture < voyageEnd
  ) {
    plan.positionReports = {
      every: config.positionReportMinutes,
      from: firstDeparture,
      until: voyageEnd,
      estimatesEta: true,
    };
  }
  return plan;
}

const NO_MILESTONES: Milestones = {
  booked: NEVER,
  containersKnown: NEVER,
  firstDeparture: NEVER,
  arrived: NEVER,
  discharged: NEVER,
  declared: NEVER,
  channel: NEVER,
  cleared: NEVER,
  etaRevised: [],
  legDeparted: [],
  legArrived: [],
};

/** Cuts the timeline at a random moment before delivery (earlier is likelier) and cancels. */
function cancel(rng: Rng, events: PlannedEvent[]): PlannedEvent[] {
  const statusPositions = events.flatMap((event, position) =>
    event.status !== null && event.status !== 'DELIVERED' ? [position] : [],
  );
  const pick = Math.floor(rng.next() ** 2 * statusPositions.length);
  const from = events[statusPositions[pick] ?? 0];
  const nextStatus = events[statusPositions[pick + 1] ?? events.length - 1];
  if (from === undefined || nextStatus === undefined) {
    return events;
  }
  const window = Math.max(2, nextStatus.at - from.at);
  const cancelledAt = from.at + 1 + Math.floor(rng.next() * (window - 1));
  const kept = events.filter((event) => event.at < cancelledAt);
  kept.push({
    kind: 'CANCELLED',
    at: cancelledAt,
    until: NEVER,
    status: 'CANCELLED',
    ref: rng.int(0, CANCELLATION_REASONS.length - 1),
  });
  return kept;
}

export function milestonesOf(events: readonly PlannedEvent[], legCount: number): Milestones {
  const milestones: Milestones = {
    ...NO_MILESTONES,
    etaRevised: [],
    legDeparted: new Array<number>(legCount).fill(NEVER),
    legArrived: new Array<number>(legCount).fill(NEVER),
  };
  for (const event of events) {
    switch (event.kind) {
      case 'BOOKED':
        milestones.booked = event.at;
        break;
      case 'GATE_IN':
        milestones.containersKnown = Math.min(milestones.containersKnown, event.at);
        break;
      case 'DEPARTED':
        milestones.firstDeparture = Math.min(milestones.firstDeparture, event.at);
        milestones.legDeparted[event.ref] = event.at;
        break;
      case 'TRANSSHIPMENT':
        milestones.legArrived[event.ref - 1] = event.at;
        break;
      case 'ARRIVED':
        milestones.arrived = event.at;
        milestones.legArrived[legCount - 1] = event.at;
        break;
      case 'DISCHARGED':
        milestones.discharged = event.at;
        break;
      case 'DECLARATION':
        milestones.declared = event.at;
        break;
      case 'CHANNEL':
        milestones.channel = event.at;
        break;
      case 'CLEARED':
        milestones.cleared = event.at;
        break;
      case 'ETA_REVISED':
        milestones.etaRevised[event.ref] = event.at;
        break;
      default:
        break;
    }
  }
  return milestones;
}
