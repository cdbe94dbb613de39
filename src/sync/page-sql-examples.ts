import { DummyValue, IN_TRANSACTION, type SqlExample } from '../database/generate-sql.decorator.js';
import type { OperationsProcess } from '../operations/operations.types.js';

/**
 * The snapshot's one process as the operations system reports it later: arrived, on another
 * container, with fewer events than stored, so that every statement of a page's write runs.
 */
const ARRIVED: OperationsProcess = {
  numero: DummyValue.NUMERO,
  status: 'ARRIVED',
  updatedAt: '2026-03-02T12:00:00Z',
  type: 'IMPORT',
  mode: 'SEA',
  customer: { id: DummyValue.CUSTOMER_ID, name: 'ACME Importadora Ltda' },
  customerReference: 'PO-1',
  origin: { code: 'CNSHA', name: 'Shanghai' },
  destination: { code: 'BRSSZ', name: 'Santos' },
  shipmentDate: '2026-02-20',
  eta: '2026-03-25',
  arrivalDate: '2026-03-02',
  containers: ['TGHU7654320'],
  customsChannel: null,
  freeTimeEndsAt: null,
  customs: null,
  events: [
    {
      id: 'IMP-1-e1',
      code: 'PROCESS_OPENED',
      description: 'Processo aberto',
      occurredAt: '2026-02-01T10:00:00Z',
      location: null,
    },
  ],
};

export const WRITE_SQL_EXAMPLES: [SqlExample, ...SqlExample[]] = [
  { name: 'a page of one changed process', params: [IN_TRANSACTION, [ARRIVED]] },
];

export const WRITE_EACH_SQL_EXAMPLES: [SqlExample, ...SqlExample[]] = [
  {
    name: 'a page of one process again, changed later (a savepoint each)',
    params: [IN_TRANSACTION, [{ ...ARRIVED, status: 'DELIVERED', updatedAt: '2026-03-03T12:00:00Z' }]],
  },
];
