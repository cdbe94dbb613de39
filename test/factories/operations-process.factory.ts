import type { FollowUpEvent, OperationsProcess } from '../../src/operations/operations.types.js';

let sequence = 0;

/** A valid process as the operations system lists it; override what the test is about. */
export function anOperationsProcess(overrides: Partial<OperationsProcess> = {}): OperationsProcess {
  sequence += 1;
  const numero = overrides.numero ?? `IMP-2026-${String(sequence).padStart(6, '0')}`;
  return {
    numero,
    status: 'IN_TRANSIT',
    updatedAt: '2026-03-01T12:00:00.000Z',
    type: 'IMPORT',
    mode: 'SEA',
    customer: { id: 'acme', name: 'ACME Importadora Ltda' },
    customerReference: `PO-${sequence}`,
    origin: { code: 'CNSHA', name: 'Shanghai' },
    destination: { code: 'BRSSZ', name: 'Santos' },
    shipmentDate: '2026-02-20',
    eta: '2026-03-25',
    arrivalDate: null,
    containers: ['MSCU1234565'],
    customsChannel: null,
    events: [
      anEvent({ id: `${numero}-e1`, code: 'PROCESS_OPENED', occurredAt: '2026-02-01T10:00:00.000Z' }),
      anEvent({ id: `${numero}-e2`, code: 'DEPARTED', occurredAt: '2026-02-21T03:00:00.000Z' }),
    ],
    ...overrides,
  };
}

export function anEvent(overrides: Partial<FollowUpEvent> = {}): FollowUpEvent {
  return {
    id: 'evt_1',
    code: 'NOTE',
    description: 'Navio partiu de Shanghai',
    occurredAt: '2026-02-21T03:00:00.000Z',
    location: { code: 'CNSHA', name: 'Shanghai' },
    ...overrides,
  };
}
