import { aListCriteria } from '../../testing/list-criteria.factory.js';
import { ChangeRecorder } from '../../changes/change-recorder.js';
import type { DatabaseService } from '../../database/database.service.js';
import type { OperationsProcess } from '../../operations/operations.types.js';
import { ProcessPageWriter } from '../../sync/process-page.writer.js';
import { anOperationsProcess } from '../../testing/operations-process.factory.js';
import { APP_TEST_DATABASE_TARGET, connectTestDatabase } from '../../testing/test-database.js';
import type { Visibility } from '../../domain/authenticated-user.js';
import type { ProcessListCriteria } from '../process-list.criteria.js';
import {
  CUSTOMS_CHANNELS,
  PROCESS_STATUSES,
  TRANSPORT_MODES,
  type CustomsChannelFilter,
} from '../../domain/process.vocabulary.js';
import { ProcessesRepository } from '../processes.repository.js';
import { filterPlanOf, PROCESS_FILTERS } from './process-filters.js';

const NO_FILTER = aListCriteria({ pageSize: 5 });

/** Each filter unset, then set in ways that pick different statement shapes. */
const SETTINGS: Array<Array<Partial<ProcessListCriteria>>> = [
  [{}, { statuses: ['OPEN'] }, { statuses: ['OPEN', 'ARRIVED'] }],
  [{}, { types: ['EXPORT'] }],
  [{}, { modes: ['AIR', 'ROAD'] }],
  [{}, { customsChannels: ['RED'] }, { customsChannels: ['NONE', 'GREEN'] }],
  [{}, { shipmentFrom: '2026-02-05', shipmentTo: '2026-02-20' }],
  [
    {},
    { updatedFrom: new Date('2026-03-02T06:00:00Z') },
    { updatedFrom: new Date('2026-03-01T18:00:00Z'), updatedBefore: new Date('2026-03-04T05:00:00Z') },
  ],
  [{}, { container: 'MSCU1234566' }],
  [{}, { etaFrom: '2026-03-08', etaTo: '2026-03-18' }],
  [{}, { freeTimeEndsFrom: '2026-03-05', freeTimeEndsTo: '2026-03-12' }],
  [{}, { delayedByDays: 3 }],
];

/** Every combination of one setting per filter. */
const combinations = SETTINGS.reduce<Array<Partial<ProcessListCriteria>>>(
  (combined, settings) =>
    combined.flatMap((partial) => settings.map((setting) => ({ ...partial, ...setting }))),
  [{}],
);

const DAY_MS = 86_400_000;
const dateOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const daysBetween = (from: string, to: string) => (Date.parse(to) - Date.parse(from)) / DAY_MS;
const inRange = (value: string | null, from: string | null, to: string | null) =>
  (from === null || (value !== null && value >= from)) && (to === null || (value !== null && value <= to));

/**
 * A plain count of `dataset`, as a reader of the criteria would do it by hand; `originalEtas` are
 * the ETAs the processes were first written with.
 */
function countByHand(
  dataset: OperationsProcess[],
  originalEtas: Map<string, string | null>,
  criteria: ProcessListCriteria,
  visibility: Visibility,
): number {
  const within = <T>(values: T[] | null, value: T) => values === null || values.includes(value);
  const delayOf = (process: OperationsProcess) => {
    const original = originalEtas.get(process.numero) ?? process.eta;
    return process.eta === null || original === null ? null : daysBetween(original, process.eta);
  };
  return dataset.filter(
    (process) =>
      within(visibility.customerIds, process.customer.id) &&
      within(criteria.statuses, process.status) &&
      within(criteria.types, process.type) &&
      within(criteria.modes, process.mode) &&
      within<CustomsChannelFilter>(criteria.customsChannels, process.customsChannel ?? 'NONE') &&
      (criteria.shipmentFrom === null || (process.shipmentDate ?? '') >= criteria.shipmentFrom) &&
      (criteria.shipmentTo === null ||
        (process.shipmentDate !== null && process.shipmentDate <= criteria.shipmentTo)) &&
      (criteria.updatedFrom === null || Date.parse(process.updatedAt) >= criteria.updatedFrom.getTime()) &&
      (criteria.updatedBefore === null || Date.parse(process.updatedAt) < criteria.updatedBefore.getTime()) &&
      (criteria.container === null || process.containers.includes(criteria.container)) &&
      inRange(process.eta, criteria.etaFrom, criteria.etaTo) &&
      inRange(process.freeTimeEndsAt, criteria.freeTimeEndsFrom, criteria.freeTimeEndsTo) &&
      (criteria.delayedByDays === null || (delayOf(process) ?? 0) >= criteria.delayedByDays),
  ).length;
}

describe('list filters', () => {
  it('declares one filter per criterion, each counted by rows or by kept totals that carry it', () => {
    expect(PROCESS_FILTERS.map((filter) => filter.name)).toEqual([
      'status',
      'type',
      'mode',
      'customsChannel',
      'shipment',
      'updated',
      'container',
      'eta',
      'freeTimeEnds',
      'delayedByDays',
    ]);
    expect(filterPlanOf(NO_FILTER).count.source).toBe('totals');
    expect(filterPlanOf({ ...NO_FILTER, customsChannels: ['NONE'], types: ['IMPORT'] }).count.source).toBe(
      'totals',
    );
    expect(filterPlanOf({ ...NO_FILTER, statuses: ['OPEN'], updatedFrom: new Date(0) }).count.source).toBe(
      'dailyTotals',
    );
    // The daily totals carry no mode: the updated range with a mode is counted row by row.
    expect(filterPlanOf({ ...NO_FILTER, modes: ['SEA'], updatedFrom: new Date(0) }).count.source).toBe(
      'rows',
    );
    expect(filterPlanOf({ ...NO_FILTER, container: 'MSCU1234566' }).count.source).toBe('rows');
    expect(filterPlanOf({ ...NO_FILTER, etaFrom: '2026-03-01' }).count.source).toBe('etaDailyTotals');
    expect(
      filterPlanOf({ ...NO_FILTER, statuses: ['OPEN'], etaFrom: '2026-03-01', etaTo: '2026-03-07' }).count
        .source,
    ).toBe('etaDailyTotals');
    // Neither kept totals carry both an ETA and an updated range, or an ETA and a type.
    expect(filterPlanOf({ ...NO_FILTER, etaTo: '2026-03-01', updatedFrom: new Date(0) }).count.source).toBe(
      'rows',
    );
    expect(filterPlanOf({ ...NO_FILTER, etaTo: '2026-03-01', types: ['IMPORT'] }).count.source).toBe('rows');
    expect(filterPlanOf({ ...NO_FILTER, freeTimeEndsTo: '2026-03-01' }).count.source).toBe('rows');
    expect(filterPlanOf({ ...NO_FILTER, delayedByDays: 1 }).count.source).toBe('rows');
  });

  // Every combination is a statement shape of its own, built by drizzle and prepared by the
  // database (6,912 statements, about 1 ms of this process's CPU each): the same SQL on either
  // database, so the counts are checked on one, PostgreSQL when there is one. The repository's
  // spec runs its statements on both.
  describe.each([APP_TEST_DATABASE_TARGET])('totalItems against counting by hand (%s)', (target) => {
    let database: DatabaseService;
    let dispose: () => Promise<void>;
    let sut: ProcessesRepository;

    /**
     * 90 processes spread over every status, type, mode, channel (or none), day, customer, ETA and
     * free-time end; some ETAs known only later, some moved later or earlier since first written.
     */
    const firstEtaOf = (index: number) =>
      index % 6 === 0 ? null : dateOf(Date.UTC(2026, 2, 1) + (index % 25) * DAY_MS);
    const movedBy = (index: number) => [0, 2, 0, 5, -2, 3, 1][index % 7]!;
    const dataset = Array.from({ length: 90 }, (_, index) =>
      anOperationsProcess({
        numero: `P-${String(index).padStart(3, '0')}`,
        customer: index % 4 === 0 ? { id: 'globex', name: 'Globex' } : { id: 'acme', name: 'ACME' },
        status: PROCESS_STATUSES[index % PROCESS_STATUSES.length],
        type: index % 3 === 0 ? 'EXPORT' : 'IMPORT',
        mode: TRANSPORT_MODES[index % TRANSPORT_MODES.length],
        customsChannel: index % 5 === 4 ? null : CUSTOMS_CHANNELS[index % 5],
        shipmentDate: index % 7 === 0 ? null : `2026-02-${String((index % 28) + 1).padStart(2, '0')}`,
        updatedAt: new Date(Date.UTC(2026, 2, 1) + index * 3_600_000 * 1.7).toISOString(),
        containers: index % 2 === 0 ? ['MSCU1234566'] : [],
        eta:
          firstEtaOf(index) === null
            ? index % 12 === 0
              ? '2026-03-10'
              : null
            : dateOf(Date.parse(firstEtaOf(index)!) + movedBy(index) * DAY_MS),
        freeTimeEndsAt: index % 3 === 1 ? dateOf(Date.UTC(2026, 2, 1) + (index % 17) * DAY_MS) : null,
      }),
    );
    const originalEtas = new Map(
      dataset.map((process, index) => [process.numero, firstEtaOf(index) ?? process.eta]),
    );
    /** The same processes as first written, a month earlier. */
    const firstWritten = dataset.map((process, index) => ({
      ...process,
      eta: firstEtaOf(index),
      updatedAt: new Date(Date.parse(process.updatedAt) - 30 * DAY_MS).toISOString(),
    }));

    beforeAll(async () => {
      ({ database, dispose } = await connectTestDatabase(target));
      const writer = new ProcessPageWriter(new ChangeRecorder());
      await database.db.transaction((tx) => writer.write(tx, firstWritten));
      await database.db.transaction((tx) => writer.write(tx, dataset));
      sut = new ProcessesRepository(database);
    });

    afterAll(() => dispose());

    it.each<[string, Visibility]>([
      ['a customer', { customerIds: ['acme'] }],
      ['staff', { customerIds: null }],
    ])(
      `is exact for all ${combinations.length} combinations of filters, as %s`,
      async (_, visibility) => {
        const mismatches: string[] = [];
        for (const combination of combinations) {
          const criteria = { ...NO_FILTER, ...combination };
          const { totalItems, items } = await sut.list(criteria, visibility);
          const expected = countByHand(dataset, originalEtas, criteria, visibility);
          if (totalItems !== expected || items.parse().length !== Math.min(expected, criteria.pageSize)) {
            mismatches.push(`${JSON.stringify(combination)}: ${totalItems}, by hand ${expected}`);
          }
        }

        expect(mismatches).toEqual([]);
        // The dataset makes the filters bite: not every combination is empty or everything.
        expect(
          new Set(
            combinations.map((c) => countByHand(dataset, originalEtas, { ...NO_FILTER, ...c }, visibility)),
          ).size,
        ).toBeGreaterThan(10);
      },
      120_000,
    );
  });
});
