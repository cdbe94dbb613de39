import { Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { and, asc, desc, eq, gte, inArray, lt, lte, sql, type Placeholder, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { DatabaseService } from '../database/database.service.js';
import { JsonText } from '../common/http/json-text.js';
import {
  customers,
  processContainers,
  processCounts,
  processDailyCounts,
  processes,
} from '../database/schema.js';
import type { CustomsDeclaration } from '../operations/operations.types.js';
import type { ProcessSummaryDto } from './dto/process-summary.response.dto.js';
import type { ProcessListCriteria, ProcessSort, Visibility } from './process-list.criteria.js';
import { processSummaryJson } from './process-summary.sql.js';
import { updatedRangeDays } from './updated-range-days.js';

/**
 * Every order ends in the numero tie-break and has an index to read it from.
 * `updated_at` is NOT NULL, so ascending NULLS FIRST is the same order as NULLS LAST; it is the
 * one a backward scan of the descending index gives, the tie-break then sorted per updatedAt.
 */
const ORDER_BY: Record<ProcessSort, SQL[]> = {
  updatedAt: [sql`${processes.updatedAt} ASC NULLS FIRST`, asc(processes.numero)],
  '-updatedAt': [sql`${processes.updatedAt} DESC NULLS LAST`, asc(processes.numero)],
  shipmentDate: [sql`${processes.shipmentDate} ASC NULLS LAST`, asc(processes.numero)],
  '-shipmentDate': [sql`${processes.shipmentDate} DESC NULLS LAST`, asc(processes.numero)],
  numero: [asc(processes.numero)],
  '-numero': [desc(processes.numero)],
};

export interface ProcessPage {
  items: JsonText<ProcessSummaryDto[]>;
  totalItems: number;
}

/** A statement prepared once per shape, executed with the request's values. */
/** What the detail reads of a stored process. */
export interface StoredProcess {
  summary: ProcessSummaryDto;
  customs: CustomsDeclaration | null;
}

interface FoundRow {
  json: string;
  customs: CustomsDeclaration | null;
}

interface PreparedRead<Row> {
  execute(values: StatementValues): Promise<Row[]>;
}

/** The values of a statement's placeholders; a shape uses those of its filters. */
type StatementValues = Record<string, unknown>;

interface ListStatements {
  count: PreparedRead<{ totalItems: number }>;
  page: PreparedRead<{ json: string }>;
}

/** Placeholders of the prepared statements; several ids or statuses are one array value. */
const param = {
  numero: sql.placeholder('numero'),
  customerId: sql.placeholder('customerId'),
  customerIds: sql.placeholder('customerIds'),
  status: sql.placeholder('status'),
  statuses: sql.placeholder('statuses'),
  shipmentFrom: sql.placeholder('shipmentFrom'),
  shipmentTo: sql.placeholder('shipmentTo'),
  updatedFrom: sql.placeholder('updatedFrom'),
  updatedBefore: sql.placeholder('updatedBefore'),
  wholeDaysFrom: sql.placeholder('wholeDaysFrom'),
  wholeDaysBefore: sql.placeholder('wholeDaysBefore'),
  firstEdgeBefore: sql.placeholder('firstEdgeBefore'),
  lastEdgeFrom: sql.placeholder('lastEdgeFrom'),
  container: sql.placeholder('container'),
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

  async list(criteria: ProcessListCriteria, visibility: Visibility): Promise<ProcessPage> {
    const statements = this.listStatementsFor(criteria, visibility);
    const offset = (criteria.page - 1) * criteria.pageSize;
    const values: StatementValues = {
      ...visibilityValues(visibility),
      status: criteria.statuses?.[0],
      statuses: criteria.statuses,
      shipmentFrom: criteria.shipmentFrom,
      shipmentTo: criteria.shipmentTo,
      updatedFrom: criteria.updatedFrom?.toISOString(),
      updatedBefore: criteria.updatedBefore?.toISOString(),
      ...updatedRangeDays(criteria.updatedFrom, criteria.updatedBefore),
      container: criteria.container,
      limit: criteria.pageSize,
      offset,
    };
    const [counted] = await statements.count.execute(values);
    const totalItems = counted?.totalItems ?? 0;
    if (offset >= totalItems) return { items: JsonText.array([]), totalItems };

    const rows = await statements.page.execute(values);
    return { items: JsonText.array(rows.map(toSummaryJson)), totalItems };
  }

  /**
   * The process if it exists and the caller may see it (the two cases are not told apart): its
   * list item, and the customs declaration stored with it, which only the detail shows.
   */
  async findVisible(numero: string, visibility: Visibility): Promise<StoredProcess | null> {
    const customers = multiplicityOf(visibility.customerIds);
    const statement = preparedOnce(this.findStatements, customers, () => this.prepareFind(customers));
    const [row] = await statement.execute({ numero, ...visibilityValues(visibility) });
    return row === undefined ? null : { summary: toSummaryJson(row).parse(), customs: row.customs };
  }

  private listStatementsFor(criteria: ProcessListCriteria, visibility: Visibility): ListStatements {
    const shape = listShapeOf(criteria, visibility);
    return preparedOnce(this.listStatements, JSON.stringify(shape), () => this.prepareList(shape));
  }

  private prepareList(shape: ListShape): ListStatements {
    const where = and(visibleTo(shape), statusIn(shape), ...filtersBeyondStatus(shape));
    const count = this.countOf(shape, where);

    // Deferred join: the page's numeros come from the indexes alone, and only those rows get
    // their timeline built (otherwise every skipped row of a deep page would be aggregated too).
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
    return { count: prepared('count', count), page: prepared('page', page) };
  }

  /** From kept totals where they answer the filters; shipment dates and containers count rows. */
  private countOf(shape: ListShape, where: SQL | undefined) {
    if (shape.shipmentFrom || shape.shipmentTo || shape.container) {
      return this.database.db
        .select({ totalItems: sql<number>`count(*)::int` })
        .from(processes)
        .where(where);
    }
    return shape.updatedFrom || shape.updatedBefore
      ? this.countFromDailyTotals(shape)
      : this.countFromTotals(shape);
  }

  /** Totals kept per customer and status by the triggers on `processes`: a few rows a customer. */
  private countFromTotals(shape: ListShape) {
    return this.database.db
      .select({ totalItems: sql<number>`coalesce(sum(${processCounts.total}), 0)::int` })
      .from(processCounts)
      .where(and(visibleTo(shape, processCounts.customerId), statusIn(shape, processCounts.status)));
  }

  /**
   * An updated range's whole UTC days from the per-day totals the triggers keep, plus its partial
   * first and last days counted in `processes` (see `updatedRangeDays`).
   */
  private countFromDailyTotals(shape: ListShape) {
    const edge = (from: Placeholder, before: Placeholder) =>
      sql` + (SELECT count(*) FROM ${processes} WHERE ${and(
        visibleTo(shape),
        statusIn(shape),
        gte(processes.updatedAt, from),
        lt(processes.updatedAt, before),
      )})`;
    const edges = sql.join([
      shape.updatedFrom ? edge(param.updatedFrom, param.firstEdgeBefore) : sql``,
      shape.updatedBefore ? edge(param.lastEdgeFrom, param.updatedBefore) : sql``,
    ]);
    return this.database.db
      .select({ totalItems: sql<number>`(coalesce(sum(${processDailyCounts.total}), 0)${edges})::int` })
      .from(processDailyCounts)
      .where(
        and(
          visibleTo(shape, processDailyCounts.customerId),
          statusIn(shape, processDailyCounts.status),
          shape.updatedFrom ? gte(processDailyCounts.day, param.wholeDaysFrom) : undefined,
          shape.updatedBefore ? lt(processDailyCounts.day, param.wholeDaysBefore) : undefined,
        ),
      );
  }

  private prepareFind(visibleCustomers: Multiplicity): PreparedRead<FoundRow> {
    const find = this.database.db
      .select({ json: processSummaryJson, customs: processes.customs })
      .from(processes)
      .innerJoin(customers, eq(customers.id, processes.customerId))
      .where(
        and(
          matching(processes.customerId, visibleCustomers, param.customerId, param.customerIds),
          sql`lower(${processes.numero}) = lower(${param.numero})`,
        ),
      )
      .limit(1);
    return prepared('find', find);
  }

  private selectSummaries() {
    return this.database.db
      .select({ json: processSummaryJson })
      .from(processes)
      .innerJoin(customers, eq(customers.id, processes.customerId))
      .$dynamic();
  }
}

/** How many values a filter has; `none` leaves it out. */
type Multiplicity = 'none' | 'one' | 'many';

function multiplicityOf(values: readonly unknown[] | null): Multiplicity {
  if (values === null) return 'none';
  return values.length === 1 ? 'one' : 'many';
}

/**
 * `column = $one` for a single value: an index on the column then still yields the order that
 * follows it, which PostgreSQL 15 cannot under `= ANY($many)` (page 500 read five times slower).
 */
function matching(
  column: AnyPgColumn,
  multiplicity: Multiplicity,
  one: Placeholder,
  many: Placeholder,
): SQL | undefined {
  if (multiplicity === 'none') return undefined;
  return multiplicity === 'one' ? sql`${column} = ${one}` : sql`${column} = ANY(${many})`;
}

/** What a list statement's SQL depends on: which filters are set, not their values. */
interface ListShape {
  sort: ProcessSort;
  customers: Multiplicity;
  statuses: Multiplicity;
  shipmentFrom: boolean;
  shipmentTo: boolean;
  updatedFrom: boolean;
  updatedBefore: boolean;
  container: boolean;
}

function listShapeOf(criteria: ProcessListCriteria, visibility: Visibility): ListShape {
  return {
    sort: criteria.sort,
    customers: multiplicityOf(visibility.customerIds),
    statuses: multiplicityOf(criteria.statuses),
    shipmentFrom: criteria.shipmentFrom !== null,
    shipmentTo: criteria.shipmentTo !== null,
    updatedFrom: criteria.updatedFrom !== null,
    updatedBefore: criteria.updatedBefore !== null,
    container: criteria.container !== null,
  };
}

function preparedOnce<K, V>(prepared: Map<K, V>, shape: K, prepare: () => V): V {
  let statement = prepared.get(shape);
  if (statement === undefined) {
    statement = prepare();
    prepared.set(shape, statement);
  }
  return statement;
}

/** The visibility's placeholder values: its one customer, or all of them as an array. */
function visibilityValues(visibility: Visibility): StatementValues {
  return { customerId: visibility.customerIds?.[0], customerIds: visibility.customerIds };
}

/**
 * Named after its text: a connection keeps a prepared statement per name, so equal names must
 * mean equal statements, whichever repository instance prepared them.
 */
function prepared<Row>(
  kind: string,
  query: { toSQL(): { sql: string }; prepare(name: string): PreparedRead<Row> },
): PreparedRead<Row> {
  const textHash = createHash('sha256').update(query.toSQL().sql).digest('hex').slice(0, 16);
  return query.prepare(`process_${kind}_${textHash}`);
}

function toSummaryJson(row: { json: string }): JsonText<ProcessSummaryDto> {
  return JsonText.of(row.json);
}

function visibleTo(shape: ListShape, customerId: AnyPgColumn = processes.customerId): SQL | undefined {
  return matching(customerId, shape.customers, param.customerId, param.customerIds);
}

function statusIn(shape: ListShape, status: AnyPgColumn = processes.status): SQL | undefined {
  return matching(status, shape.statuses, param.status, param.statuses);
}

/** Every filter but status. */
function filtersBeyondStatus(shape: ListShape): Array<SQL | undefined> {
  return [
    shape.shipmentFrom ? gte(processes.shipmentDate, param.shipmentFrom) : undefined,
    shape.shipmentTo ? lte(processes.shipmentDate, param.shipmentTo) : undefined,
    shape.updatedFrom ? gte(processes.updatedAt, param.updatedFrom) : undefined,
    shape.updatedBefore ? lt(processes.updatedAt, param.updatedBefore) : undefined,
    shape.container
      ? sql`EXISTS (SELECT 1 FROM ${processContainers} c
                    WHERE c.process_numero = ${processes.numero}
                      AND c.container_number = ${param.container})`
      : undefined,
  ];
}
