import { Injectable } from '@nestjs/common';
import { and, asc, desc, eq, gte, inArray, lt, lte, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { DatabaseService } from '../database/database.service.js';
import {
  customers,
  followUpEvents,
  processContainers,
  processCounts,
  processes,
} from '../database/schema.js';
import type { FollowUpEventDto, ProcessSummaryDto } from './dto/process-summary.response.dto.js';
import type { ProcessListCriteria, ProcessSort, Visibility } from './process-list.criteria.js';

/** RFC 3339 in UTC with second precision, the contract's instant format. */
const utcInstant = (column: SQL | typeof processes.updatedAt) =>
  sql<string>`to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')`;

/** The whole follow-up history of the outer row's process, ordered, as JSON: one statement per page. */
const followOfProcess = sql<FollowUpEventDto[]>`coalesce((
  SELECT json_agg(json_build_object(
      'id', e.id,
      'code', e.code,
      'description', e.description,
      'occurredAt', to_char(e.occurred_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
      'location', CASE WHEN e.location_code IS NULL THEN NULL
                       ELSE json_build_object('code', e.location_code, 'name', e.location_name) END
    ) ORDER BY e.occurred_at, e.id)
  FROM ${followUpEvents} e
  WHERE e.process_numero = ${processes.numero}
), '[]'::json)`;

const containersOfProcess = sql<string[]>`coalesce((
  SELECT array_agg(c.container_number ORDER BY c.position)
  FROM ${processContainers} c
  WHERE c.process_numero = ${processes.numero}
), '{}')`;

/**
 * Every order ends in the numero tie-break (CONTRACT §5.1) and has an index to read it from.
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
  items: ProcessSummaryDto[];
  totalItems: number;
}

/**
 * Reads processes as the API shows them. Visibility is part of every statement's WHERE, never
 * applied to rows after the fact; a list costs two statements whatever the page size.
 */
@Injectable()
export class ProcessesRepository {
  constructor(private readonly database: DatabaseService) {}

  async list(criteria: ProcessListCriteria, visibility: Visibility): Promise<ProcessPage> {
    const otherFilters = filtersBeyondStatus(criteria);
    const where = and(visibleTo(visibility), statusIn(criteria), ...otherFilters);
    const totalItems = otherFilters.every((filter) => filter === undefined)
      ? await this.countByStatus(criteria, visibility)
      : await this.count(where);
    const offset = (criteria.page - 1) * criteria.pageSize;
    if (offset >= totalItems) return { items: [], totalItems };

    // Deferred join: the page's numeros come from the indexes alone, and only those rows get
    // their timeline built (otherwise every skipped row of a deep page would be aggregated too).
    const pageNumeros = this.database.db
      .select({ numero: processes.numero })
      .from(processes)
      .where(where)
      .orderBy(...ORDER_BY[criteria.sort])
      .limit(criteria.pageSize)
      .offset(offset);
    const rows = await this.selectSummaries()
      .where(inArray(processes.numero, pageNumeros))
      .orderBy(...ORDER_BY[criteria.sort]);
    return { items: rows.map(toSummary), totalItems };
  }

  /** The process if it exists and the caller may see it; the two cases are not told apart. */
  async findVisible(numero: string, visibility: Visibility): Promise<ProcessSummaryDto | null> {
    const [row] = await this.selectSummaries()
      .where(and(visibleTo(visibility), sql`lower(${processes.numero}) = lower(${numero})`))
      .limit(1);
    return row === undefined ? null : toSummary(row);
  }

  /** From the per-customer, per-status totals the triggers on `processes` keep: a few rows, not every process. */
  private async countByStatus(criteria: ProcessListCriteria, visibility: Visibility): Promise<number> {
    const [counted] = await this.database.db
      .select({ totalItems: sql<number>`coalesce(sum(${processCounts.total}), 0)::int` })
      .from(processCounts)
      .where(and(visibleTo(visibility, processCounts.customerId), statusIn(criteria, processCounts.status)));
    return counted?.totalItems ?? 0;
  }

  private async count(where: SQL | undefined): Promise<number> {
    const [counted] = await this.database.db
      .select({ totalItems: sql<number>`count(*)::int` })
      .from(processes)
      .where(where);
    return counted?.totalItems ?? 0;
  }

  private selectSummaries() {
    return this.database.db
      .select({
        numero: processes.numero,
        status: processes.status,
        updatedAt: utcInstant(processes.updatedAt),
        type: processes.type,
        mode: processes.mode,
        customerId: processes.customerId,
        customerName: customers.name,
        customerReference: processes.customerReference,
        originCode: processes.originCode,
        originName: processes.originName,
        destinationCode: processes.destinationCode,
        destinationName: processes.destinationName,
        shipmentDate: processes.shipmentDate,
        eta: processes.eta,
        arrivalDate: processes.arrivalDate,
        customsChannel: processes.customsChannel,
        followCount: processes.followCount,
        containers: containersOfProcess,
        follow: followOfProcess,
      })
      .from(processes)
      .innerJoin(customers, eq(customers.id, processes.customerId))
      .$dynamic();
  }
}

type SummaryRow = Awaited<ReturnType<ReturnType<ProcessesRepository['selectSummaries']>['execute']>>[number];

function toSummary(row: SummaryRow): ProcessSummaryDto {
  const follow = row.follow;
  return {
    numero: row.numero,
    status: row.status,
    updatedAt: row.updatedAt,
    summary: {
      type: row.type,
      mode: row.mode,
      customer: { id: row.customerId, name: row.customerName },
      customerReference: row.customerReference,
      origin: { code: row.originCode, name: row.originName },
      destination: { code: row.destinationCode, name: row.destinationName },
      shipmentDate: row.shipmentDate,
      eta: row.eta,
      arrivalDate: row.arrivalDate,
      containers: row.containers,
      customsChannel: row.customsChannel,
      followCount: row.followCount,
    },
    lastFollow: follow.at(-1) ?? null,
    follow,
  };
}

function visibleTo(visibility: Visibility, customerId: AnyPgColumn = processes.customerId): SQL | undefined {
  if (visibility.customerIds === null) return undefined;
  if (visibility.customerIds.length === 0) return sql`false`;
  return inArray(customerId, visibility.customerIds);
}

function statusIn(criteria: ProcessListCriteria, status: AnyPgColumn = processes.status): SQL | undefined {
  return criteria.statuses === null ? undefined : inArray(status, criteria.statuses);
}

/** Every filter but status; a total under any of them has to count rows. */
function filtersBeyondStatus(criteria: ProcessListCriteria): Array<SQL | undefined> {
  return [
    criteria.shipmentFrom === null ? undefined : gte(processes.shipmentDate, criteria.shipmentFrom),
    criteria.shipmentTo === null ? undefined : lte(processes.shipmentDate, criteria.shipmentTo),
    criteria.updatedFrom === null ? undefined : gte(processes.updatedAt, criteria.updatedFrom.toISOString()),
    criteria.updatedBefore === null
      ? undefined
      : lt(processes.updatedAt, criteria.updatedBefore.toISOString()),
    criteria.container === null
      ? undefined
      : sql`EXISTS (SELECT 1 FROM ${processContainers} c
                    WHERE c.process_numero = ${processes.numero}
                      AND c.container_number = ${criteria.container})`,
  ];
}
