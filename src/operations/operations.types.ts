import type {
  CustomsChannel,
  FollowUpCode,
  PartyRole,
  ProcessStatus,
  ProcessType,
  TransportMode,
} from '../domain/process.vocabulary.js';
import type { CustomsDeclaration } from '../domain/customs-declaration.js';
import type { CalendarDate, Instant } from '../domain/time.js';

export interface Place {
  /** UN/LOCODE, e.g. `BRSSZ`. */
  code: string;
  name: string;
}

export interface FollowUpEvent {
  /** Stable across syncs. */
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

/** A process as the operations system lists it: the core the service stores and lists. */
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
  /** ISO 6346 container numbers, normalised (11 upper-case characters, no separators). */
  containers: string[];
  /** Always `customs.channel` when there is a declaration. */
  customsChannel: CustomsChannel | null;
  /** The earliest end of free time of the process's containers (imports, once arrived). */
  freeTimeEndsAt: CalendarDate | null;
  /** Null until a declaration is registered. */
  customs: CustomsDeclaration | null;
  /** Every follow-up event of the process, in any order. */
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
  /** The last day of free time (demurrage from the next day): imports, once the container arrived. */
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

/** What only the operations system knows about one process, fetched live for the detail route. */
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
  /** Valid items only: malformed upstream items are logged and dropped by the adapter. */
  items: OperationsProcess[];
  nextCursor: string | null;
}
