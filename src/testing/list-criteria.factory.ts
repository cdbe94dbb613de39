import type { ProcessListCriteria } from '../processes/process-list.criteria.js';

/** A list request with no filter, first page of 20, newest update first; override what the test is about. */
export function aListCriteria(overrides: Partial<ProcessListCriteria> = {}): ProcessListCriteria {
  return {
    page: 1,
    pageSize: 20,
    statuses: null,
    types: null,
    modes: null,
    customsChannels: null,
    shipmentFrom: null,
    shipmentTo: null,
    updatedFrom: null,
    updatedBefore: null,
    container: null,
    etaFrom: null,
    etaTo: null,
    freeTimeEndsFrom: null,
    freeTimeEndsTo: null,
    delayedByDays: null,
    sort: '-updatedAt',
    ...overrides,
  };
}
