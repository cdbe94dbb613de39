import { Injectable } from '@nestjs/common';
import { sql, type SQL } from 'drizzle-orm';
import type { Database } from '../database/database.service.js';
import { GenerateSql } from '../database/generate-sql.decorator.js';
import { isDataError, rowsOf, sqlStateOf, type Executor } from '../database/sql-rows.js';
import { ChangeRecorder } from '../changes/change-recorder.js';
import { retractedEvents, type StoredProcess } from '../changes/process-changes.js';
import type { ChangeKind } from '../domain/change-kinds.js';
import type { OperationsProcess } from '../operations/operations.types.js';
import { WRITE_EACH_SQL_EXAMPLES, WRITE_SQL_EXAMPLES } from './page-sql-examples.js';

export type Transaction = Parameters<Parameters<Database['transaction']>[0]>[0];

export interface PageWriteResult {
  /** Processes inserted or updated (newer upstream `updatedAt` than the stored one). */
  written: number;
  /** Processes whose stored copy is as new or newer: untouched. */
  unchanged: number;
  /** Processes the database refused (a data or constraint error), logged by the caller. */
  refused: Array<{ numero: string; reason: string }>;
  /** The changes recorded in the feed, by kind. */
  recorded: Partial<Record<ChangeKind, number>>;
}

const nothingWritten = (unchanged: number): PageWriteResult => ({
  written: 0,
  unchanged,
  refused: [],
  recorded: {},
});

/**
 * Writes one page of changed processes with a handful of set-based statements, whatever the page
 * size: rows travel as one JSON parameter each (`json_to_recordset`), which both drivers pass the
 * same way and which no parameter-count limit can break. Only processes whose incoming `updatedAt`
 * is newer than the stored one are written, and inside those only rows that actually differ, so a
 * re-run with no upstream change writes nothing. Each written process's list item is rendered
 * again, and what the writes change goes to the change feed, in the same transaction.
 */
@Injectable()
export class ProcessPageWriter {
  constructor(private readonly changes: ChangeRecorder) {}

  /** All processes in one go; any database error aborts the whole (caller's) transaction. */
  @GenerateSql(...WRITE_SQL_EXAMPLES)
  async write(tx: Transaction, processes: OperationsProcess[]): Promise<PageWriteResult> {
    if (processes.length === 0) return nothingWritten(0);
    const newer = await this.newerThanStored(tx, processes);
    const toWrite = processes.filter((process) => newer.has(process.numero));
    if (toWrite.length === 0) return nothingWritten(processes.length);

    const stored = await this.changes.storedBefore(
      tx,
      toWrite.map((process) => process.numero),
    );
    const renamedCustomers = await this.upsertCustomers(tx, toWrite);
    const written = await this.upsertProcesses(tx, toWrite, etaMovesOf(toWrite, stored));
    const writtenProcesses = toWrite.filter((process) => written.has(process.numero));
    await this.replaceContainers(tx, writtenProcesses, stored);
    await this.replaceEvents(tx, writtenProcesses, stored);
    await this.renderListItems(tx, [...written], renamedCustomers);
    const changes = await this.changes.append(tx, stored, writtenProcesses);
    return {
      written: written.size,
      unchanged: processes.length - written.size,
      refused: [],
      recorded: tally(changes.map((change) => change.kind)),
    };
  }

  /**
   * One process at a time, each in its own savepoint: the slow path after a batch failed on bad
   * data, so that the one offending process is refused and every other one still lands.
   */
  @GenerateSql(...WRITE_EACH_SQL_EXAMPLES)
  async writeEach(tx: Transaction, processes: OperationsProcess[]): Promise<PageWriteResult> {
    const result = nothingWritten(0);
    for (const process of processes) {
      try {
        const one = await tx.transaction((savepoint) => this.write(savepoint, [process]));
        result.written += one.written;
        result.unchanged += one.unchanged;
        for (const [kind, count] of Object.entries(one.recorded) as Array<[ChangeKind, number]>) {
          result.recorded[kind] = (result.recorded[kind] ?? 0) + count;
        }
      } catch (error) {
        if (!isDataError(error)) throw error;
        result.refused.push({ numero: process.numero, reason: describeDataError(error) });
      }
    }
    return result;
  }

  private async newerThanStored(tx: Executor, processes: OperationsProcess[]): Promise<Set<string>> {
    const incoming = processes.map((process) => ({ numero: process.numero, updated_at: process.updatedAt }));
    const rows = await rowsOf<{ numero: string }>(
      tx,
      sql`SELECT i.numero
            FROM json_to_recordset(${JSON.stringify(incoming)}::json) AS i(numero text, updated_at timestamptz)
            LEFT JOIN processes p ON p.numero = i.numero
           WHERE p.numero IS NULL OR p.updated_at < i.updated_at`,
    );
    return new Set(rows.map((row) => row.numero));
  }

  /** Returns the customers whose name changed: every list item of theirs names them. */
  private async upsertCustomers(tx: Executor, processes: OperationsProcess[]): Promise<string[]> {
    // The page is in ascending updatedAt order after preparation: the last mention is the newest.
    const byId = new Map(processes.map((process) => [process.customer.id, process.customer.name]));
    const rows = [...byId].map(([id, name]) => ({ id, name }));
    // Every part of the statement sees the rows as they were before it: `renamed` compares the
    // stored names with the incoming ones while `upserted` writes them.
    const renamed = await rowsOf<{ id: string }>(
      tx,
      sql`
      WITH incoming AS (
             SELECT id, name FROM json_to_recordset(${JSON.stringify(rows)}::json) AS c(id text, name text)
           ),
           upserted AS (
             INSERT INTO customers (id, name)
             SELECT id, name FROM incoming
             ON CONFLICT (id) DO UPDATE SET name = excluded.name
             WHERE customers.name IS DISTINCT FROM excluded.name
           )
      SELECT c.id FROM customers c JOIN incoming i ON i.id = c.id WHERE c.name IS DISTINCT FROM i.name`,
    );
    return renamed.map((customer) => customer.id);
  }

  /**
   * Upserts the processes and, in the same statement, appends to the ETA history of those written
   * whose ETA moved (`etaMoved`, from the stored copies). The first ETA seen stays the original:
   * on a process stored before the history began, the ETA it stored then.
   */
  private async upsertProcesses(
    tx: Executor,
    processes: OperationsProcess[],
    etaMoved: string[],
  ): Promise<Set<string>> {
    const rows = processes.map((process) => ({
      numero: process.numero,
      customer_id: process.customer.id,
      status: process.status,
      type: process.type,
      mode: process.mode,
      customer_reference: process.customerReference,
      origin_code: process.origin.code,
      origin_name: process.origin.name,
      destination_code: process.destination.code,
      destination_name: process.destination.name,
      shipment_date: process.shipmentDate,
      eta: process.eta,
      arrival_date: process.arrivalDate,
      customs_channel: process.customsChannel,
      customs: process.customs,
      free_time_ends_at: process.freeTimeEndsAt,
      follow_count: process.events.length,
      updated_at: process.updatedAt,
    }));
    const returned = await rowsOf<{ numero: string }>(
      tx,
      sql`
      WITH written AS (
      INSERT INTO processes (numero, customer_id, status, type, mode, customer_reference, origin_code,
                             origin_name, destination_code, destination_name, shipment_date, eta,
                             original_eta, arrival_date, customs_channel, customs, free_time_ends_at,
                             follow_count, updated_at, synced_at)
      SELECT numero, customer_id, status, type, mode, customer_reference, origin_code, origin_name,
             destination_code, destination_name, shipment_date, eta, eta, arrival_date, customs_channel,
             customs, free_time_ends_at, follow_count, updated_at, now()
        FROM json_to_recordset(${JSON.stringify(rows)}::json) AS p(
             numero text, customer_id text, status text, type text, mode text, customer_reference text,
             origin_code text, origin_name text, destination_code text, destination_name text,
             shipment_date date, eta date, arrival_date date, customs_channel text, customs jsonb,
             free_time_ends_at date, follow_count integer, updated_at timestamptz)
      ON CONFLICT (numero) DO UPDATE SET
             customer_id = excluded.customer_id, status = excluded.status, type = excluded.type,
             mode = excluded.mode, customer_reference = excluded.customer_reference,
             origin_code = excluded.origin_code, origin_name = excluded.origin_name,
             destination_code = excluded.destination_code, destination_name = excluded.destination_name,
             shipment_date = excluded.shipment_date, eta = excluded.eta,
             original_eta = coalesce(processes.original_eta, processes.eta, excluded.eta),
             arrival_date = excluded.arrival_date,
             customs_channel = excluded.customs_channel, customs = excluded.customs,
             free_time_ends_at = excluded.free_time_ends_at, follow_count = excluded.follow_count,
             updated_at = excluded.updated_at, synced_at = excluded.synced_at
      -- Never let an older copy overwrite a newer one, whatever order pages arrive in.
      WHERE processes.updated_at < excluded.updated_at
      RETURNING numero, eta
      ), history AS (
        INSERT INTO process_eta_history (process_numero, eta, recorded_at)
        SELECT w.numero, w.eta, now()
          FROM written w
         WHERE w.numero IN (SELECT json_array_elements_text(${JSON.stringify(etaMoved)}::json))
      )
      SELECT numero FROM written`,
    );
    return new Set(returned.map((row) => row.numero));
  }

  /**
   * The container set of each written process becomes exactly the incoming one, in its order. What
   * upstream dropped is known from the stored copies (read in this transaction, by the one writer
   * the sync lock allows), so a page that drops nothing, a first sync's above all, deletes nothing.
   */
  private async replaceContainers(
    tx: Executor,
    processes: OperationsProcess[],
    stored: Map<string, StoredProcess>,
  ): Promise<void> {
    const dropped = processes.flatMap((process) =>
      (stored.get(process.numero)?.containers ?? [])
        .filter((number) => !process.containers.includes(number))
        .map((number) => ({ process_numero: process.numero, container_number: number })),
    );
    if (dropped.length > 0) {
      await tx.execute(sql`
        DELETE FROM process_containers c
         USING json_to_recordset(${JSON.stringify(dropped)}::json) AS k(process_numero text, container_number text)
         WHERE c.process_numero = k.process_numero AND c.container_number = k.container_number`);
    }
    const rows = processes.flatMap((process) =>
      process.containers.map((number, position) => ({
        process_numero: process.numero,
        container_number: number,
        position,
      })),
    );
    if (rows.length === 0) return;
    await tx.execute(sql`
      INSERT INTO process_containers (process_numero, container_number, position)
      SELECT process_numero, container_number, position
        FROM json_to_recordset(${JSON.stringify(rows)}::json)
             AS k(process_numero text, container_number text, position smallint)
      ON CONFLICT (process_numero, container_number) DO UPDATE SET position = excluded.position
      WHERE process_containers.position IS DISTINCT FROM excluded.position`);
  }

  /**
   * Each item carries all its events: upsert them by id, and delete the ones upstream retracted,
   * known from the stored copies as the containers are (the same ones the feed reports removed).
   */
  private async replaceEvents(
    tx: Executor,
    processes: OperationsProcess[],
    stored: Map<string, StoredProcess>,
  ): Promise<void> {
    const retracted = processes.flatMap((process) =>
      retractedEvents(stored.get(process.numero), process).map((event) => ({
        process_numero: process.numero,
        id: event.id,
      })),
    );
    if (retracted.length > 0) {
      await tx.execute(sql`
        DELETE FROM follow_up_events e
         USING json_to_recordset(${JSON.stringify(retracted)}::json) AS k(process_numero text, id text)
         WHERE e.process_numero = k.process_numero AND e.id = k.id`);
    }
    const rows = processes.flatMap((process) =>
      process.events.map((event) => ({
        process_numero: process.numero,
        id: event.id,
        code: event.code,
        description: event.description,
        occurred_at: event.occurredAt,
        location_code: event.location?.code ?? null,
        location_name: event.location?.name ?? null,
      })),
    );
    if (rows.length === 0) return;
    await tx.execute(sql`
      INSERT INTO follow_up_events (process_numero, id, code, description, occurred_at, location_code, location_name)
      SELECT process_numero, id, code, description, occurred_at, location_code, location_name
        FROM json_to_recordset(${JSON.stringify(rows)}::json)
             AS k(process_numero text, id text, code text, description text,
                  occurred_at timestamptz, location_code text, location_name text)
      ON CONFLICT (process_numero, id) DO UPDATE SET
             code = excluded.code, description = excluded.description, occurred_at = excluded.occurred_at,
             location_code = excluded.location_code, location_name = excluded.location_name
      WHERE (follow_up_events.code, follow_up_events.description, follow_up_events.occurred_at,
             follow_up_events.location_code, follow_up_events.location_name)
            IS DISTINCT FROM
            (excluded.code, excluded.description, excluded.occurred_at, excluded.location_code,
             excluded.location_name)`);
  }

  /**
   * The list items of the processes written, then, after a customer's name changed, of every
   * process of that customer; rendered by PostgreSQL from what was just stored. Two statements,
   * so that each reads one index (one statement with an OR of the two scanned all processes).
   */
  private async renderListItems(
    tx: Executor,
    numeros: string[],
    renamedCustomerIds: string[],
  ): Promise<void> {
    if (numeros.length > 0) {
      await renderListItemsOf(
        tx,
        sql`p.numero IN (SELECT json_array_elements_text(${JSON.stringify(numeros)}::json))`,
      );
    }
    if (renamedCustomerIds.length > 0) {
      await renderListItemsOf(
        tx,
        sql`p.customer_id IN (SELECT json_array_elements_text(${JSON.stringify(renamedCustomerIds)}::json))`,
      );
    }
  }
}

/**
 * Renders (again) the list item of every process `processesMatching` selects, a condition on
 * `processes p`, from its stored rows: what sync does for what it writes, and what a bulk load
 * does for all it loaded.
 */
export async function renderListItemsOf(executor: Executor, processesMatching: SQL): Promise<void> {
  await executor.execute(sql`
    INSERT INTO process_list_items (numero, body)
    SELECT p.numero, process_list_item(p, c)
      FROM processes p
      JOIN customers c ON c.id = p.customer_id
     WHERE ${processesMatching}
    ON CONFLICT (numero) DO UPDATE SET body = excluded.body, shape = excluded.shape`);
}

/**
 * The processes whose ETA the write moves: a new one with an ETA, or a stored one whose ETA
 * differs (to or from none included).
 */
function etaMovesOf(processes: OperationsProcess[], stored: Map<string, StoredProcess>): string[] {
  return processes
    .filter((process) => {
      const before = stored.get(process.numero);
      return before === undefined ? process.eta !== null : before.eta !== process.eta;
    })
    .map((process) => process.numero);
}

function describeDataError(error: unknown): string {
  const state = sqlStateOf(error) ?? 'unknown';
  let current: unknown = error;
  while (current instanceof Error && current.cause instanceof Error) current = current.cause;
  const constraint = (current as { constraint?: unknown }).constraint;
  return typeof constraint === 'string'
    ? `SQLSTATE ${state} on ${constraint}`
    : `SQLSTATE ${state}: ${current instanceof Error ? current.message : String(current)}`;
}

function tally(kinds: ChangeKind[]): Partial<Record<ChangeKind, number>> {
  const counts: Partial<Record<ChangeKind, number>> = {};
  for (const kind of kinds) counts[kind] = (counts[kind] ?? 0) + 1;
  return counts;
}
