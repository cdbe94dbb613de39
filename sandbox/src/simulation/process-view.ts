import type { ProcessStatus } from '../upstream/upstream-api.js';
import type {
  Container,
  FollowUpEvent,
  OperationsProcess,
  OperationsProcessDetail,
  Party,
  Place,
  Voyage,
} from '../upstream/upstream-api.js';
import type { CustomsDeclaration } from '../upstream/upstream-api.js';
import { formatCnpj } from './cnpj.js';
import {
  customerAt,
  DAY,
  etaAt,
  EVENT_CODES,
  HOUR,
  NEVER,
  STREAM,
  type PlannedEvent,
  type ProcessPlan,
} from './process-plan.js';
import { Rng, streamSeed } from './prng.js';
import { declarationNumber } from './siscomex-numbers.js';
import {
  CANCELLATION_REASONS,
  CHANNEL_NAMES,
  CONTAINER_TYPES,
  CUSTOMS_BROKERS,
  CUSTOMS_REQUIREMENTS,
  EXPORT_CARGO,
  FOREIGN_COMPANIES,
  FREIGHT_FORWARDERS,
  IMPORT_CARGO,
  INCOTERMS,
  PROVISIONAL_NOTES,
  ROUTINE_NOTES,
  type ContainerType,
} from './reference-data.js';
import type { SimulationConfig } from './simulation-options.js';
import { DAY_MS } from './time.js';

/**
 * What a plan looks like at one moment (`now`, in whole minutes after the epoch): only events
 * that occurred and were not retracted are visible, and every summary field changes exactly at an
 * event, so `updatedAt` (the latest visible change) moves whenever anything a client sees moves.
 */

export function isVisible(event: PlannedEvent, now: number): boolean {
  return event.at <= now && now < event.until;
}

/** The minute of the latest visible change (an event, or a retraction); -1 before the process exists. */
export function updatedMinute(plan: ProcessPlan, now: number): number {
  let latest = -1;
  for (const event of plan.events) {
    if (event.at > now) break;
    latest = Math.max(latest, event.until <= now ? event.until : event.at);
  }
  const report = positionReportAt(plan, now);
  return report === null ? latest : Math.max(latest, report.at);
}

/** The next minute anything of the process changes; {@link NEVER} when its story is over. */
export function nextChangeMinute(plan: ProcessPlan, now: number): number {
  let next = NEVER;
  for (const event of plan.events) {
    if (event.at > now) {
      next = Math.min(next, event.at);
    } else if (event.until > now) {
      next = Math.min(next, event.until);
    }
  }
  const report = positionReportAt(plan, now);
  return report === null ? next : Math.min(next, report.until);
}

/**
 * The position report visible at `now`: the `index`th since departure, shown from `at` until the
 * next replaces it (the last one goes at arrival, with the ARRIVED event). Null outside a voyage.
 */
function positionReportAt(
  plan: ProcessPlan,
  now: number,
): { index: number; at: number; until: number } | null {
  const reports = plan.positionReports;
  if (reports === null || now < reports.from || now >= reports.until) return null;
  const index = Math.floor((now - reports.from) / reports.every);
  const at = reports.from + index * reports.every;
  return { index, at, until: Math.min(at + reports.every, reports.until) };
}

function positionReportEvent(plan: ProcessPlan, config: SimulationConfig, now: number): FollowUpEvent | null {
  const report = positionReportAt(plan, now);
  if (report === null || plan.positionReports === null) return null;
  const { from, until, estimatesEta } = plan.positionReports;
  const sailed = Math.round((100 * (report.at - from)) / (until - from));
  const eta = etaShownAt(plan, config, now);
  const estimate =
    estimatesEta && eta !== null ? `, chegada prevista em ${brazilianDateOf(config, eta)}` : '';
  return {
    id: `evt_${plan.numero.toLowerCase()}-pos-${report.index}`,
    code: 'NOTE',
    description: `Posição do navio atualizada: ${sailed}% da viagem até ${plan.destination.name}${estimate}`,
    occurredAt: instantOf(config, report.at),
    location: null,
  };
}

/**
 * The ETA a client sees at `now`: the one announced ({@link etaAt}) or, while a ship reports its
 * position, the estimate of its latest report. A ship at sea slips in spells: its estimate falls
 * behind the announced ETA by about a day more with each report for a few reports, then catches up
 * at once and starts again (give or take a few hours a report), and settles on the announced ETA
 * over the voyage's last two days. So ETAs move later more often than earlier, by hours to days:
 * in the demo (some 40 ships at sea, a report every 10 minutes each) a few times a minute, where
 * announced revisions alone moved a handful a day. Any minute's estimate is computed alone.
 */
export function etaShownAt(plan: ProcessPlan, config: SimulationConfig, now: number): number | null {
  const announced = etaAt(plan, now);
  const report = positionReportAt(plan, now);
  if (announced === null || report === null || plan.positionReports?.estimatesEta !== true) {
    return announced;
  }
  const shipSeed = streamSeed(config.seed, plan.index, STREAM.positionReports);
  const ship = new Rng(shipSeed);
  const spell = ship.int(3, 6);
  const step = ship.int(18 * HOUR, 36 * HOUR);
  const phase = ship.int(0, spell - 1);
  const jitter = new Rng(streamSeed(shipSeed, report.index, 0)).int(-3 * HOUR, 3 * HOUR);
  const behind = ((report.index + phase) % spell) * step + jitter;
  const settling = Math.min(1, (plan.positionReports.until - report.at) / (2 * DAY));
  return announced + Math.round(behind * settling);
}

/** UTC day number → `YYYY-MM-DD`: formatting dates is most of the cost of a process otherwise. */
const dayCache = new Map<number, string>();

function dateOfDay(day: number): string {
  let date = dayCache.get(day);
  if (date === undefined) {
    date = new Date(day * DAY_MS).toISOString().slice(0, 10);
    if (dayCache.size < 100_000) dayCache.set(day, date);
  }
  return date;
}

const dateOf = (config: SimulationConfig, minute: number): string =>
  dateOfDay(Math.floor((config.epochMs + minute * 60_000) / DAY_MS));

/** `2026-03-14T12:00:00Z`: whole minutes after a whole-minute epoch. */
function instantOf(config: SimulationConfig, minute: number): string {
  const ms = config.epochMs + minute * 60_000;
  const day = Math.floor(ms / DAY_MS);
  const minuteOfDay = (ms - day * DAY_MS) / 60_000;
  const hours = Math.floor(minuteOfDay / 60);
  const minutes = minuteOfDay - hours * 60;
  return `${dateOfDay(day)}T${hours < 10 ? '0' : ''}${hours}:${minutes < 10 ? '0' : ''}${minutes}:00Z`;
}

/** pt-BR `dd/mm/aaaa`, as the operations system writes dates in its texts. */
const brazilianDateOf = (config: SimulationConfig, minute: number): string => {
  const [year, month, day] = dateOf(config, minute).split('-');
  return `${day}/${month}/${year}`;
};

const twoDigitYear = (config: SimulationConfig, minute: number): string => dateOf(config, minute).slice(2, 4);

/** The declaration's number carries the year it was registered in. */
function declarationNumberOf(plan: ProcessPlan, config: SimulationConfig): string {
  const { kind, sequence } = plan.declaration;
  return declarationNumber(kind, twoDigitYear(config, plan.milestones.declared), sequence);
}

/** `minute` if it has happened by `now`, as an instant; else null. */
function instantIfBy(config: SimulationConfig, minute: number, now: number): string | null {
  return minute <= now ? instantOf(config, minute) : null;
}

/** The customs block at `now`: none until the declaration is registered. */
function customsAt(plan: ProcessPlan, config: SimulationConfig, now: number): CustomsDeclaration | null {
  const { milestones } = plan;
  if (milestones.declared > now) return null;
  const assigned = milestones.channel <= now;
  return {
    declarationType: plan.declaration.kind,
    declarationNumber: declarationNumberOf(plan, config),
    registeredAt: instantOf(config, milestones.declared),
    channel: assigned ? plan.channel : null,
    channelAssignedAt: instantIfBy(config, milestones.channel, now),
    clearedAt: instantIfBy(config, milestones.cleared, now),
    ceMercante: plan.ceMercante,
  };
}

/**
 * The last day of an import container's free time, once it is discharged: the line's free days
 * counted from the day of discharge (that day is the first), demurrage from the day after.
 */
function freeTimeEndsAt(plan: ProcessPlan, config: SimulationConfig, now: number): string | null {
  if (plan.type !== 'IMPORT' || plan.line === null || plan.milestones.discharged > now) return null;
  return dateOf(config, plan.milestones.discharged + (plan.line.freeTimeDays - 1) * DAY);
}

function eventId(plan: ProcessPlan, position: number): string {
  return `evt_${plan.numero.toLowerCase()}-${String(position + 1).padStart(2, '0')}`;
}

function describe(
  plan: ProcessPlan,
  event: PlannedEvent,
  config: SimulationConfig,
): { description: string; location: Place | null } {
  const { mode, type, legs, containers } = plan;
  const firstLeg = legs[0];
  const lastLeg = legs[legs.length - 1];
  const leg = legs[event.ref];
  const vehicle = (l: typeof leg): string =>
    mode === 'SEA'
      ? `Navio ${l?.vessel ?? ''}`
      : mode === 'AIR'
        ? `Voo ${l?.voyageNumber ?? ''}`
        : `Caminhão ${plan.truckPlate ?? ''}`;
  switch (event.kind) {
    case 'OPENED':
      return {
        description: `Processo de ${type === 'IMPORT' ? 'importação' : 'exportação'} aberto${
          plan.customerReference !== null ? ` (ref. cliente ${plan.customerReference})` : ''
        }`,
        location: null,
      };
    case 'BOOKED':
      return {
        description:
          mode === 'SEA'
            ? `Booking ${plan.bookingNumber} confirmado com ${plan.line?.name ?? ''}: navio ${firstLeg?.vessel ?? ''}, viagem ${firstLeg?.voyageNumber ?? ''}`
            : mode === 'AIR'
              ? `Reserva ${plan.bookingNumber} confirmada no voo ${firstLeg?.voyageNumber ?? ''} (${plan.airline?.name ?? ''})`
              : `Coleta agendada com ${plan.roadCarrier?.name ?? ''}`,
        location: plan.origin,
      };
    case 'DOCUMENTS':
      return {
        description:
          type === 'IMPORT'
            ? `Documentos originais recebidos: fatura comercial, packing list e ${mode === 'SEA' ? 'BL' : mode === 'AIR' ? 'AWB' : 'CRT'}`
            : 'Documentos de exportação recebidos do cliente: fatura comercial e packing list',
        location: null,
      };
    case 'GATE_IN':
      return {
        description: `Contêiner ${containers[event.ref] ?? ''} entregue no terminal em ${plan.origin.name} (gate in)`,
        location: plan.origin,
      };
    case 'CARGO_RECEIVED':
      return {
        description:
          mode === 'SEA'
            ? `Carga recebida no armazém de consolidação em ${plan.origin.name}`
            : mode === 'AIR'
              ? `Carga recebida no terminal de cargas do aeroporto de ${plan.origin.name}`
              : `Carga coletada em ${plan.origin.name}, caminhão placa ${plan.truckPlate ?? ''}`,
        location: plan.origin,
      };
    case 'LOADED':
      return {
        description:
          mode === 'AIR'
            ? `Carga embarcada no voo ${firstLeg?.voyageNumber ?? ''}`
            : containers.length === 1
              ? `Contêiner ${containers[0] ?? ''} embarcado no navio ${firstLeg?.vessel ?? ''}`
              : containers.length > 1
                ? `Contêineres embarcados no navio ${firstLeg?.vessel ?? ''}`
                : `Carga embarcada no navio ${firstLeg?.vessel ?? ''}`,
        location: plan.origin,
      };
    case 'DEPARTED':
      return {
        description: `${vehicle(leg)} ${mode === 'AIR' ? 'decolou' : 'partiu'} de ${leg?.from.name ?? ''}`,
        location: leg?.from ?? null,
      };
    case 'TRANSSHIPMENT':
      return {
        description:
          mode === 'AIR'
            ? `Conexão em ${leg?.from.name ?? ''}: carga transferida para o voo ${leg?.voyageNumber ?? ''}`
            : `Transbordo em ${leg?.from.name ?? ''}: carga transferida para o navio ${leg?.vessel ?? ''}`,
        location: leg?.from ?? null,
      };
    case 'ETA_REVISED': {
      const revision = plan.etaRevisions[event.ref];
      return {
        description: `Previsão de chegada em ${plan.destination.name} alterada de ${brazilianDateOf(config, revision?.previous ?? 0)} para ${brazilianDateOf(config, revision?.announced ?? 0)}`,
        location: null,
      };
    }
    case 'ARRIVED':
      return {
        description: `${vehicle(lastLeg)} ${mode === 'SEA' ? 'atracou em' : mode === 'AIR' ? 'pousou em' : 'chegou a'} ${plan.destination.name}`,
        location: plan.destination,
      };
    case 'DISCHARGED':
      return {
        description:
          mode === 'SEA'
            ? containers.length > 0
              ? `Contêineres descarregados no terminal em ${plan.destination.name}`
              : `Carga descarregada em ${plan.destination.name}`
            : mode === 'AIR'
              ? `Carga armazenada no terminal de cargas em ${plan.destination.name}`
              : `Carga descarregada no recinto alfandegado em ${plan.destination.name}`,
        location: plan.destination,
      };
    case 'DECLARATION': {
      const number = declarationNumberOf(plan, config);
      const { kind } = plan.declaration;
      return {
        description:
          kind === 'DI'
            ? `Registro da DI ${number}`
            : kind === 'DUIMP'
              ? `DUIMP ${number} registrada`
              : `DU-E ${number} registrada`,
        location: plan.brazilianPlace,
      };
    }
    case 'CHANNEL':
      return {
        description:
          type === 'IMPORT'
            ? `Parametrização: canal ${CHANNEL_NAMES[plan.channel]}`
            : // A DU-E's middle channel is called orange.
              `Parametrização da DU-E: canal ${plan.channel === 'YELLOW' ? 'laranja' : CHANNEL_NAMES[plan.channel]}`,
        location: plan.brazilianPlace,
      };
    case 'REQUIREMENT':
      return { description: CUSTOMS_REQUIREMENTS[event.ref] ?? '', location: plan.brazilianPlace };
    case 'CLEARED':
      return {
        description: type === 'IMPORT' ? 'Desembaraço concluído' : 'Desembaraço da DU-E concluído',
        location: plan.brazilianPlace,
      };
    case 'GATE_OUT':
      return {
        description: `Contêiner ${containers[event.ref] ?? ''} retirado do terminal em ${plan.destination.name} (gate out)`,
        location: plan.destination,
      };
    case 'DELIVERED':
      return {
        description:
          type === 'IMPORT'
            ? `Carga entregue ao importador em ${plan.deliveryPlace.name}`
            : `Carga entregue ao consignatário em ${plan.deliveryPlace.name}`,
        location: plan.deliveryPlace,
      };
    case 'CANCELLED':
      return { description: CANCELLATION_REASONS[event.ref] ?? 'Processo cancelado', location: null };
    case 'ROUTINE_NOTE':
      return { description: ROUTINE_NOTES[type][event.ref] ?? '', location: null };
    case 'PROVISIONAL_NOTE':
      return { description: PROVISIONAL_NOTES[event.ref] ?? '', location: null };
  }
}

export function visibleEvents(plan: ProcessPlan, config: SimulationConfig, now: number): FollowUpEvent[] {
  const events: FollowUpEvent[] = [];
  plan.events.forEach((event, position) => {
    if (isVisible(event, now)) {
      const { description, location } = describe(plan, event, config);
      events.push({
        id: eventId(plan, position),
        code: EVENT_CODES[event.kind],
        description,
        occurredAt: instantOf(config, event.at),
        location,
      });
    }
  });
  const position = positionReportEvent(plan, config, now);
  if (position !== null) events.push(position);
  return events;
}

function statusAt(plan: ProcessPlan, now: number): ProcessStatus {
  let status: ProcessStatus = 'OPEN';
  for (const event of plan.events) {
    if (event.at > now) break;
    if (event.status !== null && isVisible(event, now)) status = event.status;
  }
  return status;
}

/** The summary-level dates; `now` decides what is already known. */
function datesAt(plan: ProcessPlan, config: SimulationConfig, now: number) {
  const { milestones } = plan;
  const firstLeg = plan.legs[0];
  const lastLeg = plan.legs[plan.legs.length - 1];
  const booked = milestones.booked <= now && firstLeg !== undefined && lastLeg !== undefined;
  return {
    shipmentDate: booked
      ? dateOf(config, milestones.firstDeparture <= now ? firstLeg.atd : firstLeg.etd)
      : null,
    eta: booked ? dateOf(config, etaShownAt(plan, config, now) ?? lastLeg.etaPlanned) : null,
    arrivalDate: milestones.arrived <= now && lastLeg !== undefined ? dateOf(config, lastLeg.ata) : null,
  };
}

/** The process as the list shows it at `now`; null while it does not exist yet. */
export function processAt(
  plan: ProcessPlan,
  config: SimulationConfig,
  now: number,
): OperationsProcess | null {
  const updated = updatedMinute(plan, now);
  if (updated < 0) {
    return null;
  }
  const customer = customerAt(config, plan.customerIndex);
  return {
    numero: plan.numero,
    status: statusAt(plan, now),
    updatedAt: instantOf(config, updated),
    type: plan.type,
    mode: plan.mode,
    customer: { id: customer.id, name: customer.name },
    customerReference: plan.customerReference,
    origin: plan.origin,
    destination: plan.destination,
    ...datesAt(plan, config, now),
    containers: plan.milestones.containersKnown <= now ? [...plan.containers] : [],
    customsChannel: plan.milestones.channel <= now ? plan.channel : null,
    freeTimeEndsAt: plan.containers.length > 0 ? freeTimeEndsAt(plan, config, now) : null,
    customs: customsAt(plan, config, now),
    events: visibleEvents(plan, config, now),
  };
}

const round1 = (value: number): number => Math.round(value * 10) / 10;

/** What only the detail call returns, at `now`; null while the process does not exist yet. */
export function detailAt(
  plan: ProcessPlan,
  config: SimulationConfig,
  now: number,
): OperationsProcessDetail | null {
  if (updatedMinute(plan, now) < 0) {
    return null;
  }
  // Everything is drawn whatever `now` is, so values never change as they become visible.
  const rng = new Rng(streamSeed(config.seed, plan.index, STREAM.detail));
  const { milestones, mode, type } = plan;
  const cargo = rng.pick(type === 'IMPORT' ? IMPORT_CARGO : EXPORT_CARGO);
  const incoterm = rng.pick(INCOTERMS[mode]);
  const foreignName = rng.pick(FOREIGN_COMPANIES[plan.foreignCountry] ?? ['Global Trading Co.']);
  const broker = rng.pick(CUSTOMS_BROKERS);
  const forwarder = mode !== 'ROAD' && rng.chance(0.7) ? rng.pick(FREIGHT_FORWARDERS) : null;
  const year = dateOf(config, plan.openAt).slice(0, 4);
  const masterBill =
    plan.line !== null
      ? `${plan.line.scac}${rng.digits(8)}`
      : plan.airline !== null
        ? airWaybill(plan.airline.awbPrefix, rng.int(1_000_000, 9_999_999))
        : `BR${rng.digits(9)}`;
  const houseBill = forwarder !== null ? `HB-${year}-${rng.digits(5)}` : null;

  const containers: Container[] = plan.containers.map((number) => {
    const containerType: ContainerType = cargo.reefer
      ? '40RH'
      : rng.pick(['20GP', '40GP', '40HC', '40HC'] as const);
    const spec = CONTAINER_TYPES[containerType];
    return {
      number,
      type: containerType,
      sealNumber: `${plan.line?.scac.slice(0, 2) ?? 'SL'}${rng.digits(7)}`,
      grossWeightKg: round1(spec.maxPayloadKg * (0.35 + 0.6 * rng.next())),
      freeTimeEndsAt: freeTimeEndsAt(plan, config, now),
    };
  });
  let grossWeightKg: number;
  let volumeM3: number;
  if (containers.length > 0) {
    grossWeightKg = round1(containers.reduce((sum, container) => sum + (container.grossWeightKg ?? 0), 0));
    volumeM3 = round1(
      containers.reduce(
        (sum, container) =>
          sum + CONTAINER_TYPES[container.type as ContainerType].volumeM3 * (0.6 + 0.38 * rng.next()),
        0,
      ),
    );
  } else if (mode === 'AIR') {
    grossWeightKg = round1(20 + 3480 * rng.next());
    volumeM3 = round1((grossWeightKg / 167) * (0.8 + 0.7 * rng.next()));
  } else {
    grossWeightKg = round1((mode === 'SEA' ? 300 : 1000) + (mode === 'SEA' ? 8700 : 25000) * rng.next());
    volumeM3 = round1((mode === 'SEA' ? 1 : 10) + (mode === 'SEA' ? 24 : 80) * rng.next());
  }
  const packages = rng.int(mode === 'AIR' ? 1 : 10, mode === 'AIR' ? 120 : 1200);

  const departed = milestones.firstDeparture <= now;
  const detail: OperationsProcessDetail = {
    numero: plan.numero,
    parties: parties(plan, config, foreignName, broker, forwarder),
    shipment: {
      type,
      mode,
      incoterm,
      origin: plan.origin,
      destination: plan.destination,
      ...datesAt(plan, config, now),
      bookingNumber: milestones.booked <= now ? plan.bookingNumber : null,
      masterBill: departed ? masterBill : null,
      houseBill: departed ? houseBill : null,
      cargoDescription: cargo.description,
      packages,
      grossWeightKg,
      volumeM3,
    },
    containers: milestones.containersKnown <= now ? containers : [],
    voyages: mode === 'ROAD' || milestones.booked > now ? [] : voyagesAt(plan, config, now),
  };
  return detail;
}

/** IATA air waybill: 3-digit airline prefix, 7-digit serial and its mod-7 check digit. */
function airWaybill(prefix: string, serial: number): string {
  return `${prefix}-${serial}${serial % 7}`;
}

function parties(
  plan: ProcessPlan,
  config: SimulationConfig,
  foreignName: string,
  broker: { name: string; cnpjBase: string },
  forwarder: { name: string; cnpjBase: string } | null,
): Party[] {
  const customer = customerAt(config, plan.customerIndex);
  const own = { name: customer.name, taxId: formatCnpj(customer.cnpjBase), country: 'BR' };
  const partner = { name: foreignName, taxId: null, country: plan.foreignCountry };
  const list: Party[] =
    plan.type === 'IMPORT'
      ? [
          { role: 'IMPORTER', ...own },
          { role: 'CONSIGNEE', ...own },
          { role: 'EXPORTER', ...partner },
          { role: 'SHIPPER', ...partner },
          { role: 'NOTIFY', ...own },
        ]
      : [
          { role: 'EXPORTER', ...own },
          { role: 'SHIPPER', ...own },
          { role: 'IMPORTER', ...partner },
          { role: 'CONSIGNEE', ...partner },
          { role: 'NOTIFY', ...partner },
        ];
  if (plan.line !== null) {
    list.push({ role: 'CARRIER', name: plan.line.legalName, taxId: null, country: plan.line.country });
  } else if (plan.airline !== null) {
    list.push({ role: 'CARRIER', name: plan.airline.legalName, taxId: null, country: plan.airline.country });
  } else if (plan.roadCarrier !== null) {
    const { name, country, cnpjBase } = plan.roadCarrier;
    list.push({ role: 'CARRIER', name, taxId: cnpjBase !== null ? formatCnpj(cnpjBase) : null, country });
  }
  list.push({ role: 'CUSTOMS_BROKER', name: broker.name, taxId: formatCnpj(broker.cnpjBase), country: 'BR' });
  if (forwarder !== null) {
    list.push({
      role: 'FREIGHT_FORWARDER',
      name: forwarder.name,
      taxId: formatCnpj(forwarder.cnpjBase),
      country: 'BR',
    });
  }
  return list;
}

function voyagesAt(plan: ProcessPlan, config: SimulationConfig, now: number): Voyage[] {
  const { milestones } = plan;
  return plan.legs.map((leg, k) => ({
    sequence: k + 1,
    vessel: leg.vessel,
    voyageNumber: leg.voyageNumber,
    carrier: leg.carrier,
    loadPort: leg.from,
    dischargePort: leg.to,
    etd: instantOf(config, leg.etd),
    atd: (milestones.legDeparted[k] ?? NEVER) <= now ? instantOf(config, leg.atd) : null,
    eta: instantOf(
      config,
      k === plan.legs.length - 1 ? (etaShownAt(plan, config, now) ?? leg.etaPlanned) : leg.etaPlanned,
    ),
    ata: (milestones.legArrived[k] ?? NEVER) <= now ? instantOf(config, leg.ata) : null,
  }));
}
