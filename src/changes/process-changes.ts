import { toUtcInstant } from '../common/instant.js';
import type { FollowUpEvent, OperationsProcess } from '../operations/operations.types.js';
import type { ChangeKind } from '../domain/change-kinds.js';
import { etaDelayDays } from '../domain/eta-delay.js';
import type { CalendarDate } from '../domain/time.js';

/** A process as the database holds it before a sync page overwrites it. */
export type StoredProcess = Omit<OperationsProcess, 'customer'> & {
  customerId: string;
  /** The first ETA the service saw (null while it never saw one). */
  originalEta: CalendarDate | null;
};

/** A change before the feed gives it a position and a time. */
export interface ChangeDraft {
  customerId: string;
  numero: string;
  kind: ChangeKind;
  status: OperationsProcess['status'];
  updatedAt: string;
  /** What the kind adds to the common fields. */
  details: Record<string, unknown> | null;
}

/** The summary fields whose change is a `PROCESS_UPDATED` (status, customs, ETA and follow have kinds of their own). */
const SUMMARY_FIELDS = [
  'customerId',
  'type',
  'mode',
  'customerReference',
  'origin',
  'destination',
  'shipmentDate',
  'arrivalDate',
  'containers',
  'freeTimeEndsAt',
] as const;

/**
 * What writing `incoming` over `stored` changes, in the order a reader should apply it: status,
 * retracted events, new events, customs, the ETA, then anything else. A newer `updatedAt` with nothing
 * else different means the detail changed (the list does not hold it): `PROCESS_UPDATED`.
 * Equal data gives no change, so re-syncing the same data records nothing.
 */
export function changesBetween(
  stored: StoredProcess | undefined,
  incoming: OperationsProcess,
): ChangeDraft[] {
  const change = (kind: ChangeKind, details: Record<string, unknown> | null = null): ChangeDraft => ({
    customerId: incoming.customer.id,
    numero: incoming.numero,
    kind,
    status: incoming.status,
    updatedAt: toUtcInstant(new Date(incoming.updatedAt)),
    details,
  });
  if (stored === undefined) return [change('PROCESS_ADDED')];

  const changes: ChangeDraft[] = [];
  if (stored.status !== incoming.status) {
    changes.push(change('STATUS_CHANGED', { previousStatus: stored.status }));
  }
  const storedEvents = new Map(stored.events.map((event) => [event.id, normalized(event)]));
  const incomingEvents = new Map(incoming.events.map((event) => [event.id, normalized(event)]));
  for (const event of inTimelineOrder(retractedEvents(stored, incoming).map(normalized))) {
    changes.push(change('FOLLOW_REMOVED', { follow: event }));
  }
  for (const event of inTimelineOrder(incomingEvents.values())) {
    if (!storedEvents.has(event.id)) changes.push(change('FOLLOW_ADDED', { follow: event }));
  }
  if (stored.customsChannel !== incoming.customsChannel || !sameJson(stored.customs, incoming.customs)) {
    changes.push(change('CUSTOMS_CHANGED', { customsChannel: incoming.customsChannel }));
  }
  if (stored.eta !== incoming.eta) {
    // The original ETA is the stored one, or this one when the process never had an ETA before.
    const originalEta = stored.originalEta ?? incoming.eta;
    changes.push(
      change('ETA_CHANGED', {
        eta: incoming.eta,
        previousEta: stored.eta,
        etaDelayDays: etaDelayDays(incoming.eta, originalEta),
      }),
    );
  }
  const current = { ...incoming, customerId: incoming.customer.id };
  const eventEdited = [...incomingEvents.values()].some((event) => {
    const before = storedEvents.get(event.id);
    return before !== undefined && !sameJson(before, event);
  });
  const summaryChanged = SUMMARY_FIELDS.some((field) => !sameJson(stored[field], current[field]));
  const onlyUpdatedAtMoved =
    changes.length === 0 && Date.parse(stored.updatedAt) !== Date.parse(incoming.updatedAt);
  if (eventEdited || summaryChanged || onlyUpdatedAtMoved) changes.push(change('PROCESS_UPDATED'));
  return changes;
}

/**
 * The stored events upstream no longer sends: the feed's `FOLLOW_REMOVED` changes, and the rows
 * sync deletes.
 */
export function retractedEvents(
  stored: StoredProcess | undefined,
  incoming: OperationsProcess,
): FollowUpEvent[] {
  const incomingIds = new Set(incoming.events.map((event) => event.id));
  return (stored?.events ?? []).filter((event) => !incomingIds.has(event.id));
}

/** An event as the API shows it: instants in UTC to the second, no absent members. */
function normalized(event: FollowUpEvent): FollowUpEvent {
  return {
    id: event.id,
    code: event.code,
    description: event.description,
    occurredAt: toUtcInstant(new Date(event.occurredAt)),
    location: event.location === null ? null : { code: event.location.code, name: event.location.name },
  };
}

function inTimelineOrder(events: Iterable<FollowUpEvent>): FollowUpEvent[] {
  return [...events].sort(
    (a, b) => a.occurredAt.localeCompare(b.occurredAt) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
  );
}

/** Structural equality of JSON-shaped values, key order aside. */
function sameJson(a: unknown, b: unknown): boolean {
  return canonical(a) === canonical(b);
}

function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, member]) => member !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, member]) => `${JSON.stringify(key)}:${canonical(member)}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}
