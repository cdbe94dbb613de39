import { aListCriteria } from '../../testing/list-criteria.factory.js';
import type { FilterCriterion, ProcessListCriteria } from '../process-list.criteria.js';
import { PROCESS_FILTERS } from './process-filters.js';

/** Every criterion set, so that clearing any one of them is a change a filter can see. */
const EVERY_FILTER_SET = aListCriteria({
  statuses: ['IN_TRANSIT'],
  types: ['IMPORT'],
  modes: ['SEA'],
  customsChannels: ['GREEN'],
  shipmentFrom: '2026-01-01',
  shipmentTo: '2026-01-31',
  updatedFrom: new Date('2026-01-01T00:00:00Z'),
  updatedBefore: new Date('2026-02-01T00:00:00Z'),
  container: 'MSCU1234565',
  etaFrom: '2026-03-01',
  etaTo: '2026-03-07',
  freeTimeEndsFrom: '2026-03-02',
  freeTimeEndsTo: '2026-03-04',
  delayedByDays: 3,
});

const FILTER_CRITERIA = Object.keys(EVERY_FILTER_SET).filter(
  (key) => !['page', 'pageSize', 'sort'].includes(key),
) as FilterCriterion[];

const cleared = (criterion: FilterCriterion): ProcessListCriteria => ({
  ...EVERY_FILTER_SET,
  [criterion]: null,
});

describe('PROCESS_FILTERS', () => {
  it.each(PROCESS_FILTERS.map((filter) => [filter.name, filter] as const))(
    '%s reads exactly the criteria it declares',
    (_name, filter) => {
      const seen = FILTER_CRITERIA.filter(
        (criterion) =>
          filter.shapeOf(cleared(criterion)) !== filter.shapeOf(EVERY_FILTER_SET) ||
          JSON.stringify(filter.values(cleared(criterion))) !==
            JSON.stringify(filter.values(EVERY_FILTER_SET)),
      );

      expect(seen.sort()).toEqual([...filter.reads].sort());
    },
  );

  it('reads every filter criterion of a list request', () => {
    const read = new Set(PROCESS_FILTERS.flatMap((filter) => filter.reads));

    expect(FILTER_CRITERIA.filter((criterion) => !read.has(criterion))).toEqual([]);
  });
});
