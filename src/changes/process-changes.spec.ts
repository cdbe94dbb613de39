import { anEvent, anOperationsProcess } from '../testing/operations-process.factory.js';
import type { OperationsProcess } from '../operations/operations.types.js';
import { changesBetween, type StoredProcess } from './process-changes.js';

/** The process as the database would hand it back: instants with an offset, no `customer`. */
function stored(process: OperationsProcess): StoredProcess {
  const { customer, ...rest } = process;
  return {
    ...rest,
    customerId: customer.id,
    updatedAt: process.updatedAt.replace('Z', '+00:00'),
    events: process.events.map((event) => ({
      ...event,
      occurredAt: event.occurredAt.replace('Z', '+00:00'),
    })),
  };
}

describe(changesBetween.name, () => {
  const before = anOperationsProcess({ numero: 'IMP-1', status: 'OPEN', updatedAt: '2026-03-01T12:00:00Z' });
  const later = (changes: Partial<OperationsProcess>) => ({
    ...before,
    updatedAt: '2026-03-02T12:00:00Z',
    ...changes,
  });
  const kindsOf = (incoming: OperationsProcess) =>
    changesBetween(stored(before), incoming).map((c) => c.kind);

  it('adds a process it has not stored', () => {
    expect(changesBetween(undefined, before)).toEqual([
      {
        customerId: 'acme',
        numero: 'IMP-1',
        kind: 'PROCESS_ADDED',
        status: 'OPEN',
        updatedAt: '2026-03-01T12:00:00Z',
        details: null,
      },
    ]);
  });

  it('finds nothing in the same data, however the database spells its instants', () => {
    expect(changesBetween(stored(before), before)).toEqual([]);
  });

  it('tells a status change, with the status before', () => {
    const [change] = changesBetween(stored(before), later({ status: 'BOOKED' }));

    expect(change).toMatchObject({
      kind: 'STATUS_CHANGED',
      status: 'BOOKED',
      details: { previousStatus: 'OPEN' },
    });
  });

  it('tells retracted events as they were, then new events, in timeline order', () => {
    const newer = anEvent({ id: 'n2', code: 'NOTE', occurredAt: '2026-03-05T00:00:00Z' });
    const earlier = anEvent({ id: 'n1', code: 'NOTE', occurredAt: '2026-03-04T00:00:00Z' });
    const changes = changesBetween(stored(before), later({ events: [before.events[0]!, newer, earlier] }));

    expect(changes.map((change) => [change.kind, (change.details?.follow as { id: string }).id])).toEqual([
      ['FOLLOW_REMOVED', before.events[1]!.id],
      ['FOLLOW_ADDED', 'n1'],
      ['FOLLOW_ADDED', 'n2'],
    ]);
    expect(changes[0]?.details?.follow).toEqual({ ...before.events[1], occurredAt: '2026-02-21T03:00:00Z' });
  });

  it('tells a customs change by its channel or its declaration', () => {
    expect(kindsOf(later({ customsChannel: 'YELLOW' }))).toEqual(['CUSTOMS_CHANGED']);
    expect(
      kindsOf(
        later({
          customs: {
            declarationType: 'DI',
            declarationNumber: '26/0000001-0',
            registeredAt: '2026-03-02T10:00:00Z',
            channel: null,
            channelAssignedAt: null,
            clearedAt: null,
            ceMercante: null,
          },
        }),
      ),
    ).toEqual(['CUSTOMS_CHANGED']);
  });

  it('tells any other change of the summary, an edited event, or a newer updatedAt alone as PROCESS_UPDATED', () => {
    expect(kindsOf(later({ eta: '2026-06-01' }))).toEqual(['PROCESS_UPDATED']);
    expect(kindsOf(later({ containers: [] }))).toEqual(['PROCESS_UPDATED']);
    expect(
      kindsOf(later({ events: [{ ...before.events[0]!, description: 'Editado' }, before.events[1]!] })),
    ).toEqual(['PROCESS_UPDATED']);
    expect(kindsOf(later({}))).toEqual(['PROCESS_UPDATED']);
    // A kind of its own already says the process changed: no extra PROCESS_UPDATED.
    expect(kindsOf(later({ status: 'BOOKED' }))).toEqual(['STATUS_CHANGED']);
  });
});
