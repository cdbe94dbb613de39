import { gte, lt, lte, sql, type Placeholder, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { StatementValues } from '../../database/prepared-statements.js';
import { sqlTimestampValue } from '../../database/sql-instant.js';
import {
  processContainers,
  processCounts,
  processDailyCounts,
  processEtaDailyCounts,
  processes,
} from '../../database/schema.js';
import { NO_CUSTOMS_CHANNEL } from '../../domain/process.vocabulary.js';
import type { FilterCriterion, ProcessListCriteria } from '../process-list.criteria.js';
import { updatedRangeDays } from '../updated-range-days.js';

/** How a filter is set, as far as the SQL cares: not at all, to one value, to several, or to a range's bounds. */
export type FilterShape = 'none' | 'one' | 'many' | 'from' | 'to' | 'both' | 'set';

/**
 * The kept totals a list's count can come from instead of counting rows, cheapest first: per
 * customer, status, type, mode and channel (`process_counts`), per customer, status and UTC day
 * of `updatedAt` (`process_daily_counts`), and per customer, status and ETA
 * (`process_eta_daily_counts`).
 */
export type KeptTotals = 'totals' | 'dailyTotals' | 'etaDailyTotals';

/** The columns filters compare, in each table that has them. */
interface FilterColumns {
  status?: AnyPgColumn;
  type?: AnyPgColumn;
  mode?: AnyPgColumn;
  customsChannel?: AnyPgColumn | SQL;
  shipmentDate?: AnyPgColumn;
  eta?: AnyPgColumn;
  freeTimeEndsAt?: AnyPgColumn;
}

const PROCESS_COLUMNS: FilterColumns = {
  status: processes.status,
  type: processes.type,
  mode: processes.mode,
  // The expression of the channel index; the kept totals store NONE in place of null likewise.
  customsChannel: sql`coalesce(${processes.customsChannel}, ${sql.raw(`'${NO_CUSTOMS_CHANNEL}'`)})`,
  shipmentDate: processes.shipmentDate,
  eta: processes.eta,
  freeTimeEndsAt: processes.freeTimeEndsAt,
};

const KEPT_TOTALS_COLUMNS: Record<KeptTotals, FilterColumns> = {
  totals: {
    status: processCounts.status,
    type: processCounts.type,
    mode: processCounts.mode,
    customsChannel: processCounts.customsChannel,
  },
  dailyTotals: { status: processDailyCounts.status },
  etaDailyTotals: { status: processEtaDailyCounts.status, eta: processEtaDailyCounts.eta },
};

/**
 * One filter of `GET /api/processes`, declared once: everything the repository needs to filter,
 * bind and count by it. A filter that names no kept totals is counted by counting rows, so a new
 * filter can be slow but never gives a wrong `totalItems`.
 */
export interface ProcessFilter<Reads extends FilterCriterion = FilterCriterion> {
  readonly name: string;
  /** The criteria it reads: every criterion must be read by some filter (checked below). */
  readonly reads: readonly Reads[];
  /** Which variant of its condition the criteria call for: part of the prepared statement's shape. */
  shapeOf(criteria: ProcessListCriteria): FilterShape;
  /** Its condition for a shape other than `none`, on `processes` or on kept totals' columns. */
  where(shape: FilterShape, columns: FilterColumns): SQL | undefined;
  /** The values its placeholders take for these criteria. */
  values(criteria: ProcessListCriteria): StatementValues;
  /** The kept totals that can count a list it filters (their tables carry its column). */
  readonly countedBy: readonly KeptTotals[];
}

const placeholders = (name: string) => ({
  one: sql.placeholder(`${name}One`),
  many: sql.placeholder(`${name}Many`),
});

/** How many values a list has; `none` leaves its filter out. */
export function multiplicityOf(values: readonly unknown[] | null): 'none' | 'one' | 'many' {
  if (values === null) return 'none';
  return values.length === 1 ? 'one' : 'many';
}

/**
 * `column = $one` for a single value: an index on the column then still yields the order that
 * follows it, which PostgreSQL 15 cannot under `= ANY($many)` (page 500 read five times slower).
 */
export function matching(
  column: AnyPgColumn | SQL,
  shape: FilterShape,
  one: Placeholder,
  many: Placeholder,
): SQL | undefined {
  if (shape === 'none') return undefined;
  return shape === 'one' ? sql`${column} = ${one}` : sql`${column} = ANY(${many})`;
}

/** The column a filter compares in a table: the kept totals a filter names must carry it. */
function columnIn<Column extends keyof FilterColumns>(
  columns: FilterColumns,
  column: Column,
): NonNullable<FilterColumns[Column]> {
  const compared = columns[column];
  if (compared === undefined) throw new Error(`no ${column} column to filter on`);
  return compared;
}

/** A filter by one or more values of a closed vocabulary: several values are one array value. */
function vocabularyFilter<Criterion extends 'statuses' | 'types' | 'modes' | 'customsChannels'>(
  column: keyof FilterColumns,
  criterion: Criterion,
  countedBy: readonly KeptTotals[],
): ProcessFilter<Criterion> {
  const param = placeholders(column);
  return {
    name: column,
    reads: [criterion],
    shapeOf: (criteria) => multiplicityOf(criteria[criterion]),
    where: (shape, columns) => matching(columnIn(columns, column), shape, param.one, param.many),
    values: (criteria) => ({
      [`${column}One`]: criteria[criterion]?.[0],
      [`${column}Many`]: criteria[criterion],
    }),
    countedBy,
  };
}

/** Inclusive bounds on a calendar-date column. */
function dateRangeFilter<From extends FilterCriterion, To extends FilterCriterion>(
  name: string,
  column: 'shipmentDate' | 'eta' | 'freeTimeEndsAt',
  [fromCriterion, toCriterion]: [From, To],
  bounds: (criteria: ProcessListCriteria) => [string | null, string | null],
  countedBy: readonly KeptTotals[] = [],
): ProcessFilter<From | To> {
  const from = sql.placeholder(`${name}From`);
  const to = sql.placeholder(`${name}To`);
  return {
    name,
    reads: [fromCriterion, toCriterion],
    shapeOf: (criteria) => rangeShapeOf(...bounds(criteria)),
    where(shape, columns) {
      const compared = columnIn(columns, column);
      return rangeCondition(shape, gte(compared, from), lte(compared, to));
    },
    values: (criteria) => {
      const [start, end] = bounds(criteria);
      return { [`${name}From`]: start, [`${name}To`]: end };
    },
    countedBy,
  };
}

function rangeShapeOf(from: unknown, to: unknown): FilterShape {
  if (from !== null && to !== null) return 'both';
  if (from !== null) return 'from';
  return to !== null ? 'to' : 'none';
}

export const hasLowerBound = (shape: FilterShape | undefined) => shape === 'from' || shape === 'both';
export const hasUpperBound = (shape: FilterShape | undefined) => shape === 'to' || shape === 'both';

/** The bounds a range's shape sets, together. */
function rangeCondition(shape: FilterShape, lower: SQL, upper: SQL): SQL {
  return sql.join(
    [hasLowerBound(shape) ? lower : undefined, hasUpperBound(shape) ? upper : undefined].filter(
      (condition) => condition !== undefined,
    ),
    sql` AND `,
  );
}

export const updatedParam = {
  from: sql.placeholder('updatedFrom'),
  before: sql.placeholder('updatedBefore'),
  wholeDaysFrom: sql.placeholder('wholeDaysFrom'),
  wholeDaysBefore: sql.placeholder('wholeDaysBefore'),
  firstEdgeBefore: sql.placeholder('firstEdgeBefore'),
  lastEdgeFrom: sql.placeholder('lastEdgeFrom'),
};

/**
 * The half-open `updatedAt` range. Its daily totals count the range's whole UTC days; the
 * repository counts its partial first and last days in `processes` (see `updatedRangeDays`).
 */
const updatedRangeFilter: ProcessFilter<'updatedFrom' | 'updatedBefore'> = {
  name: 'updated',
  reads: ['updatedFrom', 'updatedBefore'],
  shapeOf: (criteria) => rangeShapeOf(criteria.updatedFrom, criteria.updatedBefore),
  where: (shape) =>
    rangeCondition(
      shape,
      gte(processes.updatedAt, updatedParam.from),
      lt(processes.updatedAt, updatedParam.before),
    ),
  values: (criteria) => ({
    updatedFrom: criteria.updatedFrom === null ? undefined : sqlTimestampValue(criteria.updatedFrom),
    updatedBefore: criteria.updatedBefore === null ? undefined : sqlTimestampValue(criteria.updatedBefore),
    ...updatedRangeDays(criteria.updatedFrom, criteria.updatedBefore),
  }),
  countedBy: ['dailyTotals'],
};

const container: ProcessFilter<'container'> = {
  name: 'container',
  reads: ['container'],
  shapeOf: (criteria) => (criteria.container === null ? 'none' : 'set'),
  where: () =>
    sql`EXISTS (SELECT 1 FROM ${processContainers} c
                WHERE c.process_numero = ${processes.numero}
                  AND c.container_number = ${sql.placeholder('container')})`,
  values: (criteria) => ({ container: criteria.container }),
  countedBy: [],
};

/**
 * Delayed by at least this many days: `eta - original_eta`, where a null `original_eta` means the
 * ETA never moved (see the column). `eta > original_eta` is the predicate of the delay indexes.
 */
const delayedByDays: ProcessFilter<'delayedByDays'> = {
  name: 'delayedByDays',
  reads: ['delayedByDays'],
  shapeOf: (criteria) => (criteria.delayedByDays === null ? 'none' : 'set'),
  where: () =>
    sql`${processes.eta} > ${processes.originalEta}
        AND (${processes.eta} - ${processes.originalEta}) >= ${sql.placeholder('delayedByDays')}`,
  values: (criteria) => ({ delayedByDays: criteria.delayedByDays }),
  countedBy: [],
};

/** Every filter of the list; docs/extending.md's "How to add a list filter" says what else a new one needs. */
export const PROCESS_FILTERS = [
  vocabularyFilter('status', 'statuses', ['totals', 'dailyTotals', 'etaDailyTotals']),
  vocabularyFilter('type', 'types', ['totals']),
  vocabularyFilter('mode', 'modes', ['totals']),
  vocabularyFilter('customsChannel', 'customsChannels', ['totals']),
  dateRangeFilter('shipment', 'shipmentDate', ['shipmentFrom', 'shipmentTo'], (criteria) => [
    criteria.shipmentFrom,
    criteria.shipmentTo,
  ]),
  updatedRangeFilter,
  container,
  dateRangeFilter('eta', 'eta', ['etaFrom', 'etaTo'], (criteria) => [criteria.etaFrom, criteria.etaTo], [
    'etaDailyTotals',
  ]),
  dateRangeFilter('freeTimeEnds', 'freeTimeEndsAt', ['freeTimeEndsFrom', 'freeTimeEndsTo'], (criteria) => [
    criteria.freeTimeEndsFrom,
    criteria.freeTimeEndsTo,
  ]),
  delayedByDays,
] as const;

/**
 * Compiles only while every criterion is read by a filter: one that no filter reads would be
 * validated, then silently ignored.
 */
type EveryCriterionIsFiltered<Unfiltered extends never> = Unfiltered;
type _Checked = EveryCriterionIsFiltered<
  Exclude<FilterCriterion, (typeof PROCESS_FILTERS)[number]['reads'][number]>
>;

/** The filters' shapes by name: which are set and how, never their values. */
export type FiltersShape = Record<string, FilterShape>;

/**
 * Where a list's total comes from, with the conditions its statement needs: the cheapest kept
 * totals that carry every set filter, or counting rows when none does.
 */
export type CountPlan =
  | { readonly source: 'rows' }
  | { readonly source: 'totals' | 'etaDailyTotals'; readonly conditions: Array<SQL | undefined> }
  | {
      readonly source: 'dailyTotals';
      /** The other set filters' conditions on `process_daily_counts`. */
      readonly conditions: Array<SQL | undefined>;
      /** The updated range's shape: which partial edge days are counted in `processes`. */
      readonly range: FilterShape;
      /** The other set filters' conditions on `processes`, for those edge days. */
      readonly edgeConditions: Array<SQL | undefined>;
    };

/** Everything a list's statements need of its filters, asked once per request. */
export interface FilterPlan {
  /** Part of the prepared statements' shape. */
  readonly shape: FiltersShape;
  /** The values the filters' placeholders take. */
  readonly values: StatementValues;
  /** The set filters' conditions on `processes`. */
  readonly conditions: Array<SQL | undefined>;
  readonly count: CountPlan;
}

export function filterPlanOf(criteria: ProcessListCriteria): FilterPlan {
  const shapes = PROCESS_FILTERS.map((filter) => [filter, filter.shapeOf(criteria)] as const);
  const set = shapes.filter(([, shape]) => shape !== 'none');
  const conditionsOn = (columns: FilterColumns, except?: ProcessFilter) =>
    set.filter(([filter]) => filter !== except).map(([filter, shape]) => filter.where(shape, columns));
  return {
    shape: Object.fromEntries(shapes.map(([filter, shape]) => [filter.name, shape])),
    values: Object.assign({}, ...PROCESS_FILTERS.map((filter) => filter.values(criteria))) as StatementValues,
    conditions: conditionsOn(PROCESS_COLUMNS),
    count: countPlanOf(set, conditionsOn),
  };
}

function countPlanOf(
  set: ReadonlyArray<readonly [ProcessFilter, FilterShape]>,
  conditionsOn: (columns: FilterColumns, except?: ProcessFilter) => Array<SQL | undefined>,
): CountPlan {
  const countedBy = (totals: KeptTotals) => set.every(([filter]) => filter.countedBy.includes(totals));
  if (countedBy('totals')) {
    return { source: 'totals', conditions: conditionsOn(KEPT_TOTALS_COLUMNS.totals, updatedRangeFilter) };
  }
  if (countedBy('dailyTotals')) {
    return {
      source: 'dailyTotals',
      conditions: conditionsOn(KEPT_TOTALS_COLUMNS.dailyTotals, updatedRangeFilter),
      range: set.find(([filter]) => filter === updatedRangeFilter)?.[1] ?? 'none',
      edgeConditions: conditionsOn(PROCESS_COLUMNS, updatedRangeFilter),
    };
  }
  // Reached with the ETA range set: without it, the per-status totals above count the list.
  if (countedBy('etaDailyTotals')) {
    return { source: 'etaDailyTotals', conditions: conditionsOn(KEPT_TOTALS_COLUMNS.etaDailyTotals) };
  }
  return { source: 'rows' };
}
