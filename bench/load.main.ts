import 'reflect-metadata';
import { parseArgs } from 'node:util';
import { datasetSpec } from './dataset.js';
import { DatabaseService } from '../src/database/database.service.js';
import {
  databaseNameOf,
  GENERATED_CHANGES_DAYS,
  loadChanges,
  loadDataset,
  readDatasetSpec,
} from './loader.js';

const USAGE = `Usage: npm run bench:load -- --processes <n> [--database-url postgres://... | --pglite-dir DIR]
                          [--customers <n>] [--extra-notes <avg>] [--seed <n>] [--force]
                          [--method copy|insert] [--changes <n>]
       npm run bench:load -- --changes <n> (--database-url postgres://... | --pglite-dir DIR)

Loads the operations simulator's data into a bench database (created when missing, migrated, then
TRUNCATED: every process, user and customer in it is replaced). Without --force the database name
must contain "bench". Default: 300 customers, 7 extra NOTE events a process on average (about 20 in
all), seed 20260314. Creates the users bench-staff / bench-staff-2026 (staff) and
bench-acme / bench-acme-2026 (customer acme, about 20% of the processes).

The change feed is emptied, or with --changes filled with <n> generated changes (positions 1..n,
recorded over the last ${GENERATED_CHANGES_DAYS} days, spread over the customers as the processes are, kinds mixed).
With --changes and no --processes, only the feed of an already loaded dataset is replaced.`;

async function main(): Promise<void> {
  const { values } = parseArgs({
    args: process.argv.slice(2),
    strict: true,
    options: {
      processes: { type: 'string' },
      'database-url': { type: 'string' },
      'pglite-dir': { type: 'string' },
      customers: { type: 'string' },
      'extra-notes': { type: 'string' },
      seed: { type: 'string' },
      force: { type: 'boolean' },
      method: { type: 'string', default: 'copy' },
      changes: { type: 'string' },
      help: { type: 'boolean' },
    },
  });
  if (values.help === true) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const changes = values.changes === undefined ? 0 : Number(values.changes);
  if (!Number.isInteger(changes) || changes < 0) throw new RangeError('--changes <n>: a count, 0 or more');
  const processCount = Number(values.processes);
  const feedOnly = values.processes === undefined && values.changes !== undefined;
  if (!feedOnly && (!Number.isInteger(processCount) || processCount < 1))
    throw new RangeError('--processes <n> is required');
  const url = values['database-url'] ?? null;
  const pgliteDir = values['pglite-dir'];
  if ((url === null) === (pgliteDir === undefined)) {
    throw new RangeError('give exactly one of --database-url and --pglite-dir');
  }
  if (url !== null && values.force !== true && !databaseNameOf(url).includes('bench')) {
    throw new RangeError(
      `refusing to truncate "${databaseNameOf(url)}": its name lacks "bench" (or pass --force)`,
    );
  }
  const log = (message: string): void => void process.stdout.write(`${message}\n`);
  if (feedOnly) {
    const database = await DatabaseService.connect({ url, pgliteDir: pgliteDir ?? '' });
    try {
      if ((await readDatasetSpec(database)) === null)
        throw new RangeError('not a bench database: load it with --processes first');
      await database.migrate();
      const started = Date.now();
      log(`Replacing the change feed with ${changes} changes`);
      await loadChanges(database, changes, log);
      log(`Change feed loaded in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    } finally {
      await database.close();
    }
    return;
  }
  const optional = (text: string | undefined): number | undefined =>
    text === undefined ? undefined : Number(text);
  const spec = datasetSpec(processCount, {
    customerCount: optional(values.customers),
    extraNotes: optional(values['extra-notes']),
    seed: optional(values.seed),
  });
  if (values.method !== 'copy' && values.method !== 'insert')
    throw new RangeError('--method: copy or insert');
  log(`Loading ${processCount} processes into ${url === null ? `PGlite ${pgliteDir}` : databaseNameOf(url)}`);
  const report = await loadDataset({ url, pgliteDir: pgliteDir ?? 'memory://' }, spec, {
    log,
    method: values.method,
    changes,
  });
  const { counts } = report;
  log(
    `Loaded ${counts.processes} processes, ${counts.events} events (${(counts.events / counts.processes).toFixed(1)} a process), ` +
      `${counts.containers} containers, ${counts.customers} customers, ${changes} changes in ${(report.totalMs / 1000).toFixed(1)} s`,
  );
}

main().catch((error: unknown) => {
  console.error(`bench:load: ${error instanceof Error ? error.message : String(error)}\n\n${USAGE}`);
  process.exitCode = 1;
});
