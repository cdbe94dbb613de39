import type {
  FollowUpEvent,
  OperationsProcess,
  OperationsProcessDetail,
} from '../../src/operations/operations.types.js';

let sequence = 0;

/** A valid process as the operations system would list it; override what the test is about. */
export function buildProcess(overrides: Partial<OperationsProcess> = {}): OperationsProcess {
  sequence += 1;
  const numero = overrides.numero ?? `IMP-2026-${String(sequence).padStart(6, '0')}`;
  const events: FollowUpEvent[] = overrides.events ?? [
    {
      id: `evt_${numero}_1`,
      code: 'PROCESS_OPENED',
      description: 'Processo aberto',
      occurredAt: '2026-02-01T09:00:00Z',
      location: null,
    },
    {
      id: `evt_${numero}_2`,
      code: 'BOOKING_CONFIRMED',
      description: 'Booking confirmado com MSC',
      occurredAt: '2026-02-03T14:30:00Z',
      location: { code: 'CNSHA', name: 'Shanghai' },
    },
  ];
  return {
    numero,
    status: 'BOOKED',
    updatedAt: '2026-02-03T14:30:00Z',
    type: 'IMPORT',
    mode: 'SEA',
    customer: { id: 'acme', name: 'ACME Importadora Ltda' },
    customerReference: `PO-${sequence}`,
    origin: { code: 'CNSHA', name: 'Shanghai' },
    destination: { code: 'BRSSZ', name: 'Santos' },
    shipmentDate: '2026-02-20',
    eta: '2026-03-25',
    arrivalDate: null,
    containers: [],
    customsChannel: null,
    ...overrides,
    events,
  };
}

/** The detail the operations system would give for `process`. */
export function buildDetail(
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
