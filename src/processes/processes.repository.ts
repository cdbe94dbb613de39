import { Injectable } from '@nestjs/common';
import { and, asc, desc, eq, gte, inArray, lt, sql, type Placeholder, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { DatabaseService } from '../database/database.service.js';
import { GenerateSql } from '../database/generate-sql.decorator.js';
import { FIND_SQL_EXAMPLES, LIST_SQL_EXAMPLES } from './list-sql-examples.js';
import {
  prepared,
  preparedOnce,
  type PreparedRead,
  type StatementValues,
} from '../database/prepared-statements.js';
import { JsonText } from '../common/http/json-text.js';
import {
  LIST_ITEM_SHAPE,
  processCounts,
  processDailyCounts,
  processEtaDailyCounts,
  processes,
  processEtaHistory,
  processListItems,
} from '../database/schema.js';
import type { CustomsDeclaration } from '../domain/customs-declaration.js';
import type { EtaRecordDto } from './dto/process-detail.response.dto.js';
import type { ProcessSummaryDto } from './dto/process-summary.response.dto.js';
import type { Visibility } from '../domain/authenticated-user.js';
import type { ProcessListCriteria, ProcessSort } from './process-list.criteria.js';
import {
  filterPlanOf,
  hasLowerBound,
  hasUpperBound,
  matching,
  multiplicityOf,
  updatedParam,
  type CountPlan,
  type FilterPlan,
  type FiltersShape,
} from './list/process-filters.js';

/**
 * Every order ends in the numero tie-break and has an index to read it from (the descending ETA
 * and free-time orders excepted: an Arrivals list reads them forwards, and a range filter bounds
 * what the others sort). `updated_at` is NOT NULL, so ascending NULLS FIRST is the same order as NULLS LAST; it is the
 * one a backward scan of the descending index gives, the tie-break then sorted per updatedAt.
 */
const ORDER_BY: Record<ProcessSort, SQL[]> = {
  updatedAt: [sql`${processes.updatedAt} ASC NULLS FIRST`, asc(processes.numero)],
  '-updatedAt': [sql`${processes.updatedAt} DESC NULLS LAST`, asc(processes.numero)],
  shipmentDate: [sql`${processes.shipmentDate} ASC NULLS LAST`, asc(processes.numero)],
  '-shipmentDate': [sql`${processes.shipmentDate} DESC NULLS LAST`, asc(processes.numero)],
  eta: [sql`${processes.eta} ASC NULLS LAST`, asc(processes.numero)],
  '-eta': [sql`${processes.eta} DESC NULLS LAST`, asc(processes.numero)],
  freeTimeEndsAt: [sql`${processes.freeTimeEndsAt} ASC NULLS LAST`, asc(processes.numero)],
  '-freeTimeEndsAt': [sql`${processes.freeTimeEndsAt} DESC NULLS LAST`, asc(processes.numero)],
  numero: [asc(processes.numero)],
  '-numero': [desc(processes.numero)],
};

export interface ProcessPage {
  items: JsonText<ProcessSummaryDto[]>;
  totalItems: number;
}

/** What the detail reads of a stored process. */
export interface StoredProcess {
  summary: ProcessSummaryDto;
  customs: CustomsDeclaration | null;
  etaHistory: EtaRecordDto[];
}

interface ListedRow {
  json: string;
  digest: string;
}

interface FoundRow {
  json: string;
  customs: CustomsDeclaration | null;
  etaHistory: EtaRecordDto[];
}

interface ListStatements {
  count: PreparedRead<{ totalItems: number }>;
  page: PreparedRead<ListedRow>;
}

const param = {
  numero: sql.placeholder('numero'),
  customerId: sql.placeholder('customerId'),
  customerIds: sql.placeholder('customerIds'),
  limit: sql.placeholder('limit'),
  offset: sql.placeholder('offset'),
};

/**
 * Reads processes as the API shows them. Visibility is part of every statement's WHERE, never
 * applied to rows after the fact; a list costs two statements whatever the page size.
 *
 * Statements are prepared, one per shape (which filters, which sort, how many customers and
 * statuses): drizzle builds each shape's SQL once, and PostgreSQL parses it once per connection
 * instead of on every request. Values are bound, several customers or statuses as one array, so
 * the number of shapes stays bounded whatever the values.
 */
@Injectable()
export class ProcessesRepository {
  private readonly listStatements = new Map<string, ListStatements>();
  private readonly findStatements = new Map<Multiplicity, PreparedRead<FoundRow>>();

  constructor(private readonly database: DatabaseService) {}

  @GenerateSql(...LIST_SQL_EXAMPLES)
  async list(criteria: ProcessListCriteria, visibility: Visibility): Promise<ProcessPage> {
    const filters = filterPlanOf(criteria);
    const statements = this.listStatementsFor(criteria, visibility, filters);
    const offset = (criteria.page - 1) * criteria.pageSize;
    const values: StatementValues = {
      ...visibilityValues(visibility),
      ...filters.values,
      limit: criteria.pageSize,
      offset,
    };
    const [counted] = await statements.count.execute(values);
    const totalItems = counted?.totalItems ?? 0;
    if (offset >= totalItems) return { items: JsonText.array([]), totalItems };

    const rows = await statements.page.execute(values);
    return { items: JsonText.array(rows.map((row) => JsonText.of(row.json, row.digest))), totalItems };
  }

  /**
   * The process if it exists and the caller may see it (the two cases are not told apart): its
   * list item, and the customs declaration and ETA history stored with it, which only the detail shows.
   */
  @GenerateSql(...FIND_SQL_EXAMPLES)
  async findVisible(numero: string, visibility: Visibility): Promise<StoredProcess | null> {
    const customers = multiplicityOf(visibility.customerIds);
    const statement = preparedOnce(this.findStatements, customers, () => this.prepareFind(customers));
    const [row] = await statement.execute({ numero, ...visibilityValues(visibility) });
    return row === undefined
      ? null
      : { summary: toSummaryJson(row).parse(), customs: row.customs, etaHistory: row.etaHistory };
  }

  private listStatementsFor(
    criteria: ProcessListCriteria,
    visibility: Visibility,
    filters: FilterPlan,
  ): ListStatements {
    const shape = listShapeOf(criteria, visibility, filters);
    return preparedOnce(this.listStatements, JSON.stringify(shape), () => this.prepareList(shape, filters));
  }

  private prepareList(shape: ListShape, filters: FilterPlan): ListStatements {
    const where = and(visibleTo(shape), ...filters.conditions);
    const count = this.countOf(shape, filters.count, where);

    // Deferred join: the page's numeros come from the indexes alone, and only those rows are
    // joined to their items (otherwise every skipped row of a deep page would be read too).
    const pageNumeros = this.database.db
      .select({ numero: processes.numero })
      .from(processes)
      .where(where)
      .orderBy(...ORDER_BY[shape.sort])
      .limit(param.limit)
      .offset(param.offset);
    const page = this.selectSummaries()
      .where(inArray(processes.numero, pageNumeros))
      .orderBy(...ORDER_BY[shape.sort]);
    return { count: prepared('process_count', count), page: prepared('process_page', page) };
  }

  /** From the cheapest kept totals that carry every set filter; by counting rows otherwise. */
  private countOf(shape: ListShape, count: CountPlan, where: SQL | undefined) {
    switch (count.source) {
      case 'totals':
        return this.sumOfKeptTotals(shape, processCounts, count.conditions);
      case 'dailyTotals':
        return this.countFromDailyTotals(shape, count);
      case 'etaDailyTotals':
        return this.sumOfKeptTotals(shape, processEtaDailyCounts, count.conditions);
      case 'rows':
        return this.database.db
          .select({ totalItems: sql<number>`count(*)::int` })
          .from(processes)
          .where(where);
      default:
        throw new Error(`no count from ${String(count satisfies never)}`);
    }
  }

  /**
   * The visible customers' kept totals that match: per status, type, mode and channel (a few
   * hundred rows a customer at most), or per status and ETA ("what arrives this week" is seven
   * days of rows).
   */
  private sumOfKeptTotals(
    shape: ListShape,
    totals: typeof processCounts | typeof processEtaDailyCounts,
    conditions: Array<SQL | undefined>,
  ) {
    return this.database.db
      .select({ totalItems: sql<number>`coalesce(sum(${totals.total}), 0)::int` })
      .from(totals)
      .where(and(visibleTo(shape, totals.customerId), ...conditions));
  }

  /**
   * An updated range's whole UTC days from the per-day totals, plus its partial first and last
   * days counted in `processes` (see `updatedRangeDays`).
   */
  private countFromDailyTotals(shape: ListShape, count: CountPlan & { source: 'dailyTotals' }) {
    const hasStart = hasLowerBound(count.range);
    const hasEnd = hasUpperBound(count.range);
    const edge = (from: Placeholder, before: Placeholder) =>
      sql` + (SELECT count(*) FROM ${processes} WHERE ${and(
        visibleTo(shape),
        ...count.edgeConditions,
        gte(processes.updatedAt, from),
        lt(processes.updatedAt, before),
      )})`;
    const edges = sql.join([
      hasStart ? edge(updatedParam.from, updatedParam.firstEdgeBefore) : sql``,
      hasEnd ? edge(updatedParam.lastEdgeFrom, updatedParam.before) : sql``,
    ]);
    return this.database.db
      .select({ totalItems: sql<number>`(coalesce(sum(${processDailyCounts.total}), 0)${edges})::int` })
      .from(processDailyCounts)
      .where(
        and(
          visibleTo(shape, processDailyCounts.customerId),
          ...count.conditions,
          hasStart ? gte(processDailyCounts.day, updatedParam.wholeDaysFrom) : undefined,
          hasEnd ? lt(processDailyCounts.day, updatedParam.wholeDaysBefore) : undefined,
        ),
      );
  }

  private prepareFind(visibleCustomers: Multiplicity): PreparedRead<FoundRow> {
    const find = this.database.db
      .select({ json: listItemBody, customs: processes.customs, etaHistory: etaHistoryOf })
      .from(processes)
      .leftJoin(processListItems, eq(processListItems.numero, processes.numero))
      .where(
        and(
          matching(processes.customerId, visibleCustomers, param.customerId, param.customerIds),
          sql`lower(${processes.numero}) = lower(${param.numero})`,
        ),
      )
      .limit(1);
    return prepared('process_find', find);
  }

  private selectSummaries() {
    return this.database.db
      .select({ json: listItemBody, digest: listItemDigest })
      .from(processes)
      .leftJoin(processListItems, eq(processListItems.numero, processes.numero))
      .$dynamic();
  }
}

/** A process's ETA history as the detail shows it, oldest first. */
const etaHistoryOf = sql<EtaRecordDto[]>`(
  SELECT coalesce(json_agg(json_build_object(
           'eta', ${processEtaHistory.eta},
           'recordedAt', to_char(${processEtaHistory.recordedAt} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'))
         ORDER BY ${processEtaHistory.id}), '[]')
    FROM ${processEtaHistory}
   WHERE ${processEtaHistory.processNumero} = ${processes.numero})`;

/**
 * A process's list item as stored, or rendered now for one whose item the background backfill has
 * not reached yet (`ListItemsBackfill`: missing, or stored in an earlier shape, which the release
 * before serves meanwhile): the same rendering either way.
 */
const renderedNow = sql`process_list_item(${processes}, (SELECT c FROM customers c WHERE c.id = ${processes.customerId}))`;
const storedInShape = sql`${processListItems.shape} = ${sql.raw(String(LIST_ITEM_SHAPE))}`;
const listItemBody = sql<string>`CASE WHEN ${storedInShape} THEN ${processListItems.body} ELSE ${renderedNow} END`;
const listItemDigest = sql<string>`CASE WHEN ${storedInShape} THEN ${processListItems.digest} ELSE md5(${renderedNow}) END`;

type Multiplicity = ReturnType<typeof multiplicityOf>;

/** What a list statement's SQL depends on: which filters are set and how, not their values. */
interface ListShape {
  sort: ProcessSort;
  customers: Multiplicity;
  filters: FiltersShape;
}

function listShapeOf(criteria: ProcessListCriteria, visibility: Visibility, filters: FilterPlan): ListShape {
  return { sort: criteria.sort, customers: multiplicityOf(visibility.customerIds), filters: filters.shape };
}

/** The visibility's placeholder values: its one customer, or all of them as an array. */
function visibilityValues(visibility: Visibility): StatementValues {
  return { customerId: visibility.customerIds?.[0], customerIds: visibility.customerIds };
}

function toSummaryJson(row: { json: string }): JsonText<ProcessSummaryDto> {
  return JsonText.of(row.json);
}

function visibleTo(shape: ListShape, customerId: AnyPgColumn = processes.customerId): SQL | undefined {
  return matching(customerId, shape.customers, param.customerId, param.customerIds);
}
