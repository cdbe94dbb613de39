import type {
  FollowUpEvent,
  OperationsProcess,
  OperationsProcessDetail,
} from '../operations/operations.types.js';

let sequence = 0;

/** A valid process as the operations system lists it; override what the test is about. */
export function anOperationsProcess(overrides: Partial<OperationsProcess> = {}): OperationsProcess {
  sequence += 1;
  const numero = overrides.numero ?? `IMP-2026-${String(sequence).padStart(6, '0')}`;
  return {
    numero,
    status: 'IN_TRANSIT',
    updatedAt: '2026-03-01T12:00:00Z',
    type: 'IMPORT',
    mode: 'SEA',
    customer: { id: 'acme', name: 'ACME Importadora Ltda' },
    customerReference: `PO-${sequence}`,
    origin: { code: 'CNSHA', name: 'Shanghai' },
    destination: { code: 'BRSSZ', name: 'Santos' },
    shipmentDate: '2026-02-20',
    eta: '2026-03-25',
    arrivalDate: null,
    containers: ['MSCU1234566'],
    customsChannel: null,
    freeTimeEndsAt: null,
    customs: null,
    events: [
      anEvent({ id: `${numero}-e1`, code: 'PROCESS_OPENED', occurredAt: '2026-02-01T10:00:00Z' }),
      anEvent({ id: `${numero}-e2`, code: 'DEPARTED', occurredAt: '2026-02-21T03:00:00Z' }),
    ],
    ...overrides,
  };
}

export function anEvent(overrides: Partial<FollowUpEvent> = {}): FollowUpEvent {
  return {
    id: 'evt_1',
    code: 'NOTE',
    description: 'Navio partiu de Shanghai',
    occurredAt: '2026-02-21T03:00:00Z',
    location: { code: 'CNSHA', name: 'Shanghai' },
    ...overrides,
  };
}

/** The detail the operations system would give for `process`. */
export function anOperationsDetail(
  process: OperationsProcess,
  overrides: Partial<OperationsProcessDetail> = {},
): OperationsProcessDetail {
  return {
    numero: process.numero,
    parties: [{ role: 'IMPORTER', name: process.customer.name, taxId: '12.345.678/0001-95', country: 'BR' }],
    shipment: {
      type: process.type,
      mode: process.mode,
      incoterm: 'FOB',
      origin: process.origin,
      destination: process.destination,
      shipmentDate: process.shipmentDate,
      eta: process.eta,
      arrivalDate: process.arrivalDate,
      bookingNumber: 'MSC123456',
      masterBill: 'MEDU1234567',
      houseBill: 'HB-2026-0042',
      cargoDescription: 'Auto parts',
      packages: 120,
      grossWeightKg: 18250.5,
      volumeM3: 54.2,
    },
    containers: process.containers.map((number) => ({
      number,
      type: '40HC',
      sealNumber: 'SL123456',
      grossWeightKg: 9100,
      freeTimeEndsAt: process.freeTimeEndsAt,
    })),
    voyages:
      process.mode === 'SEA'
        ? [
            {
              sequence: 1,
              vessel: 'MSC AURORA',
              voyageNumber: 'AU123W',
              carrier: 'MSC',
              loadPort: process.origin,
              dischargePort: process.destination,
              etd: '2026-02-20T10:00:00Z',
              atd: null,
              eta: '2026-03-25T08:00:00Z',
              ata: null,
            },
          ]
        : [],
    ...overrides,
  };
}
