import { UNFILTERED_LIST, type ProcessListCriteria } from '../processes/process-list.criteria.js';

/** A list request with no filter, first page of 20, newest update first; override what the test is about. */
export function aListCriteria(overrides: Partial<ProcessListCriteria> = {}): ProcessListCriteria {
  return { ...UNFILTERED_LIST, ...overrides };
}
