import { DummyValue, type SqlExample } from '../database/generate-sql.decorator.js';
import type { Visibility } from '../domain/authenticated-user.js';
import { PROCESS_SORTS, UNFILTERED_LIST, type ProcessListCriteria } from './process-list.criteria.js';

const ONE_CUSTOMER: Visibility = { customerIds: [DummyValue.CUSTOMER_ID] };
const SEVERAL_CUSTOMERS: Visibility = { customerIds: [DummyValue.CUSTOMER_ID, DummyValue.OTHER_CUSTOMER_ID] };
const STAFF: Visibility = { customerIds: null };

const list = (
  name: string,
  criteria: Partial<ProcessListCriteria>,
  visibility = ONE_CUSTOMER,
): SqlExample => ({
  name: `${name} (count, then page)`,
  params: [{ ...UNFILTERED_LIST, ...criteria }, visibility],
});

/**
 * Every filter alone (its shapes), every sort, and each visibility, with values the snapshot's one
 * process matches, so that both the count and the page are sent.
 */
export const LIST_SQL_EXAMPLES: [SqlExample, ...SqlExample[]] = [
  list('no filter, as one customer', {}),
  list('no filter, as a user of several customers', {}, SEVERAL_CUSTOMERS),
  list('no filter, as staff', {}, STAFF),
  list('one status', { statuses: ['IN_TRANSIT'] }),
  list('several statuses', { statuses: ['IN_TRANSIT', 'ARRIVED'] }),
  list('type', { types: ['IMPORT'] }),
  list('several modes', { modes: ['SEA', 'AIR'] }),
  list('one customs channel', { customsChannels: ['RED'] }),
  list('customs channel or none', { customsChannels: ['RED', 'NONE'] }),
  list('shipment range', { shipmentFrom: '2026-02-01', shipmentTo: '2026-02-28' }),
  list('updated from', { updatedFrom: new Date('2026-03-01T06:00:00Z') }),
  list('updated range, with a status', {
    statuses: ['IN_TRANSIT'],
    updatedFrom: new Date('2026-02-27T06:00:00Z'),
    updatedBefore: new Date('2026-03-02T06:00:00Z'),
  }),
  list('updated range, with a mode', { modes: ['SEA'], updatedFrom: new Date('2026-03-01T06:00:00Z') }),
  list('container', { container: 'MSCU1234566' }),
  list('arriving in a week, by ETA', { etaFrom: '2026-03-02', etaTo: '2026-03-08', sort: 'eta' }),
  list('free time ending in 3 days, by its end', {
    freeTimeEndsFrom: '2026-03-02',
    freeTimeEndsTo: '2026-03-04',
    sort: 'freeTimeEndsAt',
  }),
  list('delayed by days', { delayedByDays: 3 }),
  list('delayed by days, as staff', { delayedByDays: 3 }, STAFF),
  ...PROCESS_SORTS.filter((sort) => sort !== '-updatedAt').map((sort) => list(`sort ${sort}`, { sort })),
];

export const FIND_SQL_EXAMPLES: [SqlExample, ...SqlExample[]] = [
  { name: 'as one customer', params: ['imp-1', ONE_CUSTOMER] },
  { name: 'as several customers', params: ['imp-1', SEVERAL_CUSTOMERS] },
  { name: 'as staff', params: ['imp-1', STAFF] },
];
