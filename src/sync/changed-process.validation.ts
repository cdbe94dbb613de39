import type { FollowUpEvent, OperationsProcess, Place } from '../operations/operations.types.js';
import {
  CUSTOMS_CHANNELS,
  FOLLOW_UP_CODES,
  PROCESS_STATUSES,
  PROCESS_TYPES,
  TRANSPORT_MODES,
} from '../processes/process.vocabulary.js';

/**
 * The gateway promises valid items, but the database is ours to protect: sync re-checks every
 * rule the schema enforces (CONTRACT §3: an unknown status is logged and skipped, never a crash),
 * so one bad item costs that item only, not its page.
 */
export type ValidationResult =
  | { valid: true; process: OperationsProcess; updatedAtMs: number }
  | { valid: false; numero: string; reason: string; updatedAtMs: number | null };

const NUMERO = /^[A-Za-z0-9._-]{1,40}$/;
const CONTAINER = /^[A-Z]{4}[0-9]{7}$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

const inVocabulary = (values: readonly string[], value: unknown) =>
  typeof value === 'string' && values.includes(value);
const isText = (value: unknown): value is string => typeof value === 'string';
const isInstant = (value: unknown) => isText(value) && !Number.isNaN(Date.parse(value));
const isPlace = (value: unknown): value is Place =>
  typeof value === 'object' &&
  value !== null &&
  isText((value as Place).code) &&
  isText((value as Place).name);
const isCalendarDate = (value: unknown) =>
  value === null || (isText(value) && DATE.test(value) && !Number.isNaN(Date.parse(`${value}T00:00:00Z`)));

export function validateChangedProcess(item: OperationsProcess): ValidationResult {
  const candidate = item as Partial<OperationsProcess>;
  const numero = isText(candidate.numero) ? candidate.numero : String(candidate.numero);
  const updatedAtMs = isInstant(candidate.updatedAt) ? Date.parse(candidate.updatedAt as string) : null;
  const reason = firstProblem(candidate, updatedAtMs);
  if (reason !== null || updatedAtMs === null) {
    return { valid: false, numero, reason: reason ?? 'updatedAt is not an instant', updatedAtMs };
  }
  return { valid: true, process: item, updatedAtMs };
}

function firstProblem(item: Partial<OperationsProcess>, updatedAtMs: number | null): string | null {
  if (!isText(item.numero) || !NUMERO.test(item.numero)) return 'numero is malformed';
  if (updatedAtMs === null) return 'updatedAt is not an instant';
  if (!inVocabulary(PROCESS_STATUSES, item.status)) return `unknown status ${String(item.status)}`;
  if (!inVocabulary(PROCESS_TYPES, item.type)) return `unknown type ${String(item.type)}`;
  if (!inVocabulary(TRANSPORT_MODES, item.mode)) return `unknown mode ${String(item.mode)}`;
  if (item.customsChannel !== null && !inVocabulary(CUSTOMS_CHANNELS, item.customsChannel)) {
    return `unknown customs channel ${String(item.customsChannel)}`;
  }
  if (!item.customer || !isText(item.customer.id) || item.customer.id === '' || !isText(item.customer.name)) {
    return 'customer is malformed';
  }
  if (item.customerReference !== null && !isText(item.customerReference))
    return 'customerReference is malformed';
  if (!isPlace(item.origin) || !isPlace(item.destination)) return 'origin or destination is malformed';
  if (![item.shipmentDate, item.eta, item.arrivalDate].every(isCalendarDate)) return 'a date is malformed';
  if (!Array.isArray(item.containers) || !item.containers.every((c) => isText(c) && CONTAINER.test(c))) {
    return 'a container number is malformed';
  }
  if (!Array.isArray(item.events)) return 'events are missing';
  const badEvent = item.events.find((event) => !isValidEvent(event));
  return badEvent === undefined ? null : `event ${String(badEvent?.id)} is malformed`;
}

function isValidEvent(event: FollowUpEvent | undefined): boolean {
  return (
    event !== undefined &&
    isText(event.id) &&
    event.id !== '' &&
    inVocabulary(FOLLOW_UP_CODES, event.code) &&
    isText(event.description) &&
    isInstant(event.occurredAt) &&
    (event.location === null || isPlace(event.location))
  );
}

export interface PreparedPage {
  /** Valid, one per numero (case-insensitively; the newest wins), oldest change first. */
  processes: OperationsProcess[];
  rejected: Array<{ numero: string; reason: string }>;
  /** The greatest `updatedAt` on the page, refused items included (re-pulling them cannot help). */
  highWaterMs: number | null;
}

/** Validates a page and removes what one set-based statement cannot take twice (same key twice). */
export function preparePage(items: readonly OperationsProcess[]): PreparedPage {
  const byNumero = new Map<string, { process: OperationsProcess; updatedAtMs: number }>();
  const rejected: PreparedPage['rejected'] = [];
  let highWaterMs: number | null = null;
  for (const item of items) {
    const result = validateChangedProcess(item);
    if (result.updatedAtMs !== null)
      highWaterMs = Math.max(highWaterMs ?? result.updatedAtMs, result.updatedAtMs);
    if (!result.valid) {
      rejected.push({ numero: result.numero, reason: result.reason });
      continue;
    }
    const key = result.process.numero.toLowerCase();
    const seen = byNumero.get(key);
    if (seen === undefined || seen.updatedAtMs <= result.updatedAtMs) {
      byNumero.set(key, { process: withUniqueChildren(result.process), updatedAtMs: result.updatedAtMs });
    }
  }
  const processes = [...byNumero.values()]
    .sort((a, b) => a.updatedAtMs - b.updatedAtMs)
    .map((entry) => entry.process);
  return { processes, rejected, highWaterMs };
}

/** A repeated event id keeps its last version; a repeated container its first position. */
function withUniqueChildren(process: OperationsProcess): OperationsProcess {
  const events = [...new Map(process.events.map((event) => [event.id, event])).values()];
  const containers = [...new Set(process.containers)];
  return events.length === process.events.length && containers.length === process.containers.length
    ? process
    : { ...process, events, containers };
}
