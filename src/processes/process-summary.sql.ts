import { sql, type SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { customers, followUpEvents, processContainers, processes } from '../database/schema.js';
import { sqlUtcInstant as utcInstant } from '../database/sql-instant.js';

/**
 * The outer row's whole follow-up history, ordered by time then id, as a JSON array. The location
 * subquery has no FROM of its own, so the planner folds it into the row: no subplan per event.
 */
const followOfProcess = sql`
  SELECT coalesce(array_to_json(array_agg(row_to_json(event) ORDER BY e.occurred_at, e.id)), '[]') AS events
  FROM ${followUpEvents} e
  CROSS JOIN LATERAL (
    SELECT e.id,
           e.code,
           e.description,
           ${utcInstant(sql`e.occurred_at`)} AS "occurredAt",
           CASE WHEN e.location_code IS NULL THEN NULL ELSE row_to_json(place) END AS location
    FROM (SELECT e.location_code AS code, e.location_name AS name) place
  ) event
  WHERE e.process_numero = ${processes.numero}`;

const containersOfProcess = sql`coalesce((
  SELECT array_agg(c.container_number ORDER BY c.position)
  FROM ${processContainers} c
  WHERE c.process_numero = ${processes.numero}
), '{}')`;

/**
 * The outer `processes` row (joined with its `customers` row) as a list item,
 * rendered to JSON text by PostgreSQL. Node then joins a page's items instead of mapping rows,
 * parsing their events and serialising it all again: that was most of a list request's CPU.
 *
 * `row_to_json` writes compact JSON with the columns' names in their order, so the text is the
 * bytes `JSON.stringify` would give for the documented shape (`json_build_object` would pad it
 * with spaces). Member order here is the order of `ProcessSummaryDto`.
 */
const processSummaryFragment = sql`(
  SELECT row_to_json(item)::text
  FROM (
    SELECT ${processes.numero} AS numero,
           ${processes.status} AS status,
           ${utcInstant(processes.updatedAt)} AS "updatedAt",
           row_to_json(summary) AS summary,
           follow.events -> -1 AS "lastFollow",
           follow.events AS follow
    FROM (
      SELECT ${processes.type} AS type,
             ${processes.mode} AS mode,
             row_to_json(customer) AS customer,
             ${processes.customerReference} AS "customerReference",
             row_to_json(origin) AS origin,
             row_to_json(destination) AS destination,
             ${processes.shipmentDate} AS "shipmentDate",
             ${processes.eta} AS eta,
             ${processes.arrivalDate} AS "arrivalDate",
             ${containersOfProcess} AS containers,
             ${processes.customsChannel} AS "customsChannel",
             ${processes.freeTimeEndsAt} AS "freeTimeEndsAt",
             ${processes.followCount} AS "followCount"
      FROM (SELECT ${customers.id} AS id, ${customers.name} AS name) customer,
           (SELECT ${processes.originCode} AS code, ${processes.originName} AS name) origin,
           (SELECT ${processes.destinationCode} AS code, ${processes.destinationName} AS name) destination
    ) summary,
    (${followOfProcess}) follow
  ) item
)`;

/**
 * The fragment has no parameters, so it is rendered to SQL text once, here: drizzle would
 * otherwise walk its hundred-odd pieces again for every statement that embeds it.
 */
export const processSummaryJson = sql<string>`${sql.raw(renderedWithoutParameters(processSummaryFragment))}`;

function renderedWithoutParameters(fragment: SQL): string {
  const { sql: text, params } = new PgDialect().sqlToQuery(fragment);
  if (params.length > 0) throw new Error('a fragment rendered once must not take parameters');
  return text;
}
