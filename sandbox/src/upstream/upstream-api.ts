/**
 * The operations system's upstream API as it travels on the wire: what the sandbox serves and
 * what the process lookup service reads. The sandbox keeps its own copy of these shapes on
 * purpose: it is another system, and shares no code with the service.
 */

/** RFC 3339 instant in UTC, e.g. `2026-03-14T12:00:00Z`. */
export type Instant = string;
/** Calendar date, `YYYY-MM-DD`. */
export type CalendarDate = string;

export const PROCESS_STATUSES = [
  'OPEN',
  'BOOKED',
  'IN_TRANSIT',
  'ARRIVED',
  'CUSTOMS_CLEARANCE',
  'CLEARED',
  'DELIVERED',
  'CANCELLED',
] as const;
export type ProcessStatus = (typeof PROCESS_STATUSES)[number];

export const PROCESS_TYPES = ['IMPORT', 'EXPORT'] as const;
export type ProcessType = (typeof PROCESS_TYPES)[number];

export const TRANSPORT_MODES = ['SEA', 'AIR', 'ROAD'] as const;
export type TransportMode = (typeof TRANSPORT_MODES)[number];

export const CUSTOMS_CHANNELS = ['GREEN', 'YELLOW', 'RED', 'GRAY'] as const;
export type CustomsChannel = (typeof CUSTOMS_CHANNELS)[number];

export type DeclarationType = 'DI' | 'DUIMP' | 'DUE';

export const FOLLOW_UP_CODES = [
  'PROCESS_OPENED',
  'BOOKING_CONFIRMED',
  'CARGO_RECEIVED',
  'GATE_IN',
  'LOADED',
  'DEPARTED',
  'TRANSSHIPMENT',
  'ARRIVED',
  'DISCHARGED',
  'DOCUMENTS_RECEIVED',
  'CUSTOMS_DECLARATION_REGISTERED',
  'CUSTOMS_CHANNEL_ASSIGNED',
  'CUSTOMS_CLEARED',
  'GATE_OUT',
  'DELIVERED',
  'CANCELLED',
  'NOTE',
] as const;
export type FollowUpCode = (typeof FOLLOW_UP_CODES)[number];

export type PartyRole =
  | 'IMPORTER'
  | 'EXPORTER'
  | 'SHIPPER'
  | 'CONSIGNEE'
  | 'NOTIFY'
  | 'CARRIER'
  | 'CUSTOMS_BROKER'
  | 'FREIGHT_FORWARDER';

/** The forward path of each process type; CANCELLED may follow any state but DELIVERED. */
export const STATUS_PATHS: Readonly<Record<ProcessType, readonly ProcessStatus[]>> = {
  IMPORT: ['OPEN', 'BOOKED', 'IN_TRANSIT', 'ARRIVED', 'CUSTOMS_CLEARANCE', 'CLEARED', 'DELIVERED'],
  EXPORT: ['OPEN', 'BOOKED', 'CUSTOMS_CLEARANCE', 'CLEARED', 'IN_TRANSIT', 'ARRIVED', 'DELIVERED'],
};

export interface Place {
  /** UN/LOCODE, e.g. `BRSSZ`. */
  code: string;
  name: string;
}

export interface FollowUpEvent {
  /** Stable: the same event keeps its id. */
  id: string;
  code: FollowUpCode;
  /** The operations system's own text (pt-BR). */
  description: string;
  occurredAt: Instant;
  location: Place | null;
}

export interface Customer {
  id: string;
  name: string;
}

/** The CE-Mercante (the merchant-navy bill of lading record) of a sea import: 15-digit numbers. */
export interface CeMercante {
  master: string;
  house: string | null;
}

export interface CustomsDeclaration {
  declarationType: DeclarationType;
  /** As Siscomex writes it: DI `yy/nnnnnnn-d`, DUIMP and DU-E `yyBRnnnnnnnnnn-d`. */
  declarationNumber: string;
  registeredAt: Instant;
  channel: CustomsChannel | null;
  channelAssignedAt: Instant | null;
  clearedAt: Instant | null;
  ceMercante: CeMercante | null;
}

/** A process as `GET /processes` lists it. */
export interface OperationsProcess {
  numero: string;
  status: ProcessStatus;
  updatedAt: Instant;
  type: ProcessType;
  mode: TransportMode;
  customer: Customer;
  customerReference: string | null;
  origin: Place;
  destination: Place;
  shipmentDate: CalendarDate | null;
  eta: CalendarDate | null;
  arrivalDate: CalendarDate | null;
  /** ISO 6346 container numbers (11 upper-case characters). */
  containers: string[];
  customsChannel: CustomsChannel | null;
  /** The earliest end of free time of the process's containers (imports, once discharged). */
  freeTimeEndsAt: CalendarDate | null;
  customs: CustomsDeclaration | null;
  events: FollowUpEvent[];
}

export interface Party {
  role: PartyRole;
  name: string;
  taxId: string | null;
  /** ISO 3166-1 alpha-2. */
  country: string | null;
}

export interface Shipment {
  type: ProcessType;
  mode: TransportMode;
  incoterm: string | null;
  origin: Place;
  destination: Place;
  shipmentDate: CalendarDate | null;
  eta: CalendarDate | null;
  arrivalDate: CalendarDate | null;
  bookingNumber: string | null;
  masterBill: string | null;
  houseBill: string | null;
  cargoDescription: string | null;
  packages: number | null;
  grossWeightKg: number | null;
  volumeM3: number | null;
}

export interface Container {
  number: string;
  /** ISO 6346 size/type, e.g. `40HC`. */
  type: string | null;
  sealNumber: string | null;
  grossWeightKg: number | null;
  /** The last day of free time (demurrage from the next day). */
  freeTimeEndsAt: CalendarDate | null;
}

export interface Voyage {
  sequence: number;
  vessel: string | null;
  voyageNumber: string | null;
  carrier: string | null;
  loadPort: Place;
  dischargePort: Place;
  etd: Instant | null;
  atd: Instant | null;
  eta: Instant | null;
  ata: Instant | null;
}

/** `GET /processes/{numero}`. */
export interface OperationsProcessDetail {
  numero: string;
  parties: Party[];
  shipment: Shipment;
  containers: Container[];
  voyages: Voyage[];
}

export interface ChangedProcessesQuery {
  /** Only processes whose `updatedAt` is strictly after this instant; `null` for everything. */
  updatedSince: Instant | null;
  /** Opaque continuation from the previous page; `null` for the first page. */
  cursor: string | null;
  limit: number;
}

export interface ChangedProcessesPage {
  items: OperationsProcess[];
  nextCursor: string | null;
}
