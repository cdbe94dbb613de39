/**
 * The closed vocabularies of the API. One source for the database CHECKs, the request
 * validation, the upstream mapper and the OpenAPI enums.
 */
/** What a process numero may be (matched case-insensitively). */
export const NUMERO_PATTERN = /^[A-Za-z0-9._-]{1,40}$/;

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

/** How lists and kept totals name the absence of a channel (not yet parametrised, or no customs). */
export const NO_CUSTOMS_CHANNEL = 'NONE';
export const CUSTOMS_CHANNEL_FILTERS = [...CUSTOMS_CHANNELS, NO_CUSTOMS_CHANNEL] as const;
export type CustomsChannelFilter = (typeof CUSTOMS_CHANNEL_FILTERS)[number];

/** DI and DUIMP for imports (DUIMP replacing DI during 2025-2026), DU-E for exports. */
export const DECLARATION_TYPES = ['DI', 'DUIMP', 'DUE'] as const;
export type DeclarationType = (typeof DECLARATION_TYPES)[number];

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

export const PARTY_ROLES = [
  'IMPORTER',
  'EXPORTER',
  'SHIPPER',
  'CONSIGNEE',
  'NOTIFY',
  'CARRIER',
  'CUSTOMS_BROKER',
  'FREIGHT_FORWARDER',
] as const;
export type PartyRole = (typeof PARTY_ROLES)[number];

/** The forward path of each process type; CANCELLED may follow any state but DELIVERED. */
export const STATUS_PATHS: Readonly<Record<ProcessType, readonly ProcessStatus[]>> = {
  IMPORT: ['OPEN', 'BOOKED', 'IN_TRANSIT', 'ARRIVED', 'CUSTOMS_CLEARANCE', 'CLEARED', 'DELIVERED'],
  EXPORT: ['OPEN', 'BOOKED', 'CUSTOMS_CLEARANCE', 'CLEARED', 'IN_TRANSIT', 'ARRIVED', 'DELIVERED'],
};
