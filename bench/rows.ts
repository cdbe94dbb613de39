import type { OperationsProcess } from '../src/operations/operations.types.js';
import type { DatasetProcess } from './dataset.js';

/**
 * The rows one process becomes: the same columns and values as sync's ProcessPageWriter writes
 * (`upsertProcesses`, `replaceContainers`, `replaceEvents`), in column order for COPY and for
 * `json_to_recordset`.
 */
export const PROCESS_COLUMNS = [
  'numero',
  'customer_id',
  'status',
  'type',
  'mode',
  'customer_reference',
  'origin_code',
  'origin_name',
  'destination_code',
  'destination_name',
  'shipment_date',
  'eta',
  'original_eta',
  'arrival_date',
  'customs_channel',
  'customs',
  'free_time_ends_at',
  'follow_count',
  'updated_at',
  'synced_at',
] as const;
export const CONTAINER_COLUMNS = ['process_numero', 'container_number', 'position'] as const;
export const EVENT_COLUMNS = [
  'process_numero',
  'id',
  'code',
  'description',
  'occurred_at',
  'location_code',
  'location_name',
] as const;

type Cell = string | number | null;

export function processRow(process: DatasetProcess, syncedAt: string): Cell[] {
  return [
    process.numero,
    process.customer.id,
    process.status,
    process.type,
    process.mode,
    process.customerReference,
    process.origin.code,
    process.origin.name,
    process.destination.code,
    process.destination.name,
    process.shipmentDate,
    process.eta,
    process.originalEta,
    process.arrivalDate,
    process.customsChannel,
    process.customs === null ? null : JSON.stringify(process.customs),
    process.freeTimeEndsAt,
    process.events.length,
    process.updatedAt,
    syncedAt,
  ];
}

export function containerRows(process: OperationsProcess): Cell[][] {
  return process.containers.map((number, position) => [process.numero, number, position]);
}

export function eventRows(process: OperationsProcess): Cell[][] {
  return process.events.map((event) => [
    process.numero,
    event.id,
    event.code,
    event.description,
    event.occurredAt,
    event.location?.code ?? null,
    event.location?.name ?? null,
  ]);
}

/** One line of PostgreSQL's COPY text format: tab-separated, `\N` for null, backslash escapes. */
export function copyLine(cells: readonly Cell[]): string {
  let line = '';
  for (let i = 0; i < cells.length; i++) {
    const cell = cells[i];
    if (i > 0) line += '\t';
    if (cell === null || cell === undefined) line += '\\N';
    else if (typeof cell === 'number') line += String(cell);
    else line += /[\\\t\n\r]/.test(cell) ? cell.replace(/[\\\t\n\r]/g, escapeCopy) : cell;
  }
  return `${line}\n`;
}

const COPY_ESCAPES: Record<string, string> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' };
const escapeCopy = (character: string): string => COPY_ESCAPES[character] ?? character;

/** Rows as objects keyed by column, for `json_to_recordset` (PGlite's batched inserts). */
export function asRecords(columns: readonly string[], rows: readonly Cell[][]): Array<Record<string, Cell>> {
  return rows.map((row) => Object.fromEntries(columns.map((column, i) => [column, row[i] ?? null])));
}
