import { anEvent, anOperationsProcess } from '../testing/operations-process.factory.js';
import type { OperationsProcess } from '../operations/operations.types.js';
import { changesBetween, type StoredProcess } from './process-changes.js';

/** The process as the database would hand it back: instants with an offset, no `customer`. */
function stored(process: OperationsProcess): StoredProcess {
  const { customer, ...rest } = process;
  return {
    ...rest,
    customerId: customer.id,
    originalEta: process.eta,
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

  it('tells an ETA move with the ETA before and the delay from the original ETA', () => {
    const [change] = changesBetween(
      { ...stored(before), eta: '2026-03-27', originalEta: '2026-03-25' },
      later({ eta: '2026-04-01' }),
    );

    expect(change).toMatchObject({
      kind: 'ETA_CHANGED',
      details: { eta: '2026-04-01', previousEta: '2026-03-27', etaDelayDays: 7 },
    });
  });

  it('tells an ETA moved earlier, withdrawn, or known the first time', () => {
    const detailsOf = (storedEta: string | null, incomingEta: string | null) =>
      changesBetween(
        { ...stored(before), eta: storedEta, originalEta: storedEta },
        later({ eta: incomingEta }),
      ).map((change) => [change.kind, change.details]);

    expect(detailsOf('2026-03-25', '2026-03-22')).toEqual([
      ['ETA_CHANGED', { eta: '2026-03-22', previousEta: '2026-03-25', etaDelayDays: -3 }],
    ]);
    expect(detailsOf('2026-03-25', null)).toEqual([
      ['ETA_CHANGED', { eta: null, previousEta: '2026-03-25', etaDelayDays: null }],
    ]);
    expect(detailsOf(null, '2026-03-25')).toEqual([
      ['ETA_CHANGED', { eta: '2026-03-25', previousEta: null, etaDelayDays: 0 }],
    ]);
  });

  it('records an ETA move and another change of the summary as both kinds', () => {
    expect(kindsOf(later({ eta: '2026-06-01', arrivalDate: '2026-05-30' }))).toEqual([
      'ETA_CHANGED',
      'PROCESS_UPDATED',
    ]);
    expect(kindsOf(later({ eta: '2026-06-01', customsChannel: 'RED' }))).toEqual([
      'CUSTOMS_CHANGED',
      'ETA_CHANGED',
    ]);
  });

  it('tells any other change of the summary, an edited event, or a newer updatedAt alone as PROCESS_UPDATED', () => {
    expect(kindsOf(later({ eta: '2026-06-01' }))).toEqual(['ETA_CHANGED']);
    expect(kindsOf(later({ shipmentDate: '2026-02-25' }))).toEqual(['PROCESS_UPDATED']);
    expect(kindsOf(later({ containers: [] }))).toEqual(['PROCESS_UPDATED']);
    expect(
      kindsOf(later({ events: [{ ...before.events[0]!, description: 'Editado' }, before.events[1]!] })),
    ).toEqual(['PROCESS_UPDATED']);
    expect(kindsOf(later({}))).toEqual(['PROCESS_UPDATED']);
    // A kind of its own already says the process changed: no extra PROCESS_UPDATED.
    expect(kindsOf(later({ status: 'BOOKED' }))).toEqual(['STATUS_CHANGED']);
  });
});
