import type { OperationsProcess } from '../operations/operations.types.js';

export interface PreparedPage {
  /** One per numero (case-insensitively; the newest wins), oldest change first. */
  processes: OperationsProcess[];
  rejected: Array<{ numero: string; reason: string }>;
  /** The greatest `updatedAt` on the page, refused items included (re-pulling them cannot help). */
  highWaterMs: number | null;
}

/**
 * Readies a page for set-based writes: one item per numero (a statement cannot take the same key
 * twice) and no duplicate children. Field validity is the gateway's job (its adapter maps every
 * payload into our types) and the schema's (its CHECKs refuse anything else, one item at a time).
 */
export function preparePage(items: readonly OperationsProcess[]): PreparedPage {
  const byNumero = new Map<string, { process: OperationsProcess; updatedAtMs: number }>();
  const rejected: PreparedPage['rejected'] = [];
  let highWaterMs: number | null = null;
  for (const item of items) {
    const updatedAtMs = Date.parse(item.updatedAt);
    if (Number.isNaN(updatedAtMs)) {
      rejected.push({ numero: item.numero, reason: 'updatedAt is not an instant' });
      continue;
    }
    highWaterMs = Math.max(highWaterMs ?? updatedAtMs, updatedAtMs);
    const key = item.numero.toLowerCase();
    const seen = byNumero.get(key);
    if (seen === undefined || seen.updatedAtMs <= updatedAtMs) {
      byNumero.set(key, { process: withUniqueChildren(item), updatedAtMs });
    }
  }
  const processes = [...byNumero.values()]
    .sort((a, b) => a.updatedAtMs - b.updatedAtMs)
    .map((entry) => entry.process);
  return { processes, rejected, highWaterMs };
}

/** A repeated event id keeps its last version; a repeated container its first position. */
function withUniqueChildren(process: OperationsProcess): OperationsProcess {
  const events = [...new Map(process.events.map((event) => [event.id, event])).values()];
  const containers = [...new Set(process.containers)];
  return events.length === process.events.length && containers.length === process.containers.length
    ? process
    : { ...process, events, containers };
}
