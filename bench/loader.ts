import { once } from 'node:events';
import { finished } from 'node:stream/promises';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import copyStreams, { type CopyStreamQuery } from 'pg-copy-streams';
import { PasswordHasher } from '../src/auth/password-hasher.service.js';
import { UsersRepository } from '../src/auth/users/users.repository.js';
import { DatabaseService } from '../src/database/database.service.js';
import { rowsOf } from '../src/database/sql-rows.js';
import { renderListItemsOf } from '../src/sync/process-page.writer.js';
import { BENCH_USERS, datasetProcesses, simulatorOf, type DatasetSpec } from './dataset.js';
import {
  asRecords,
  CONTAINER_COLUMNS,
  containerRows,
  copyLine,
  EVENT_COLUMNS,
  eventRows,
  PROCESS_COLUMNS,
  processRow,
} from './rows.js';

export interface LoadTarget {
  /** A PostgreSQL database (created when missing); null for PGlite in {@link pgliteDir}. */
  url: string | null;
  pgliteDir: string;
}

export interface DatasetCounts {
  processes: number;
  events: number;
  containers: number;
  customers: number;
}

export interface LoadReport {
  counts: DatasetCounts;
  /** Milliseconds per phase, in order. */
  phases: Array<[string, number]>;
  totalMs: number;
}

export interface LoadOptions {
  log?: (message: string) => void;
  /** A connection to the target to use (and leave open); one is opened and closed otherwise. */
  database?: DatabaseService;
  /** PostgreSQL: COPY (default) or the batched `json_to_recordset` INSERTs PGlite uses, to compare. */
  method?: 'copy' | 'insert';
  /** Create the bench users (argon2 hashing costs about a second). Default true. */
  createUsers?: boolean;
  /** Generated changes to fill the feed with ({@link loadChanges}); default 0, an empty feed. */
  changes?: number;
}

/** The tables the loader owns and what their indexes and foreign keys cost during a load. */
const DATA_TABLES = [
  'processes',
  'process_containers',
  'follow_up_events',
  'process_list_items',
  'process_eta_history',
] as const;
/** Processes per batch: one COPY write, or one `json_to_recordset` statement per table on PGlite. */
const BATCH = 1_000;
const PGLITE_BATCH = 2_000;

/**
 * Loads a dataset into an empty (truncated) database as fast as the driver allows: migrations,
 * secondary indexes and foreign keys dropped, rows streamed with COPY (PostgreSQL: three
 * connections, one per table, each `COPY ... FREEZE` after a TRUNCATE in its own transaction) or
 * big `json_to_recordset` INSERTs (PGlite), then indexes and keys rebuilt, VACUUM ANALYZE, and the
 * bench users created. The definitions dropped are kept in `bench_dataset` until rebuilt, so a
 * load that dies half-way is repaired by the next one.
 */
export async function loadDataset(
  target: LoadTarget,
  spec: DatasetSpec,
  options: LoadOptions = {},
): Promise<LoadReport> {
  const log = options.log ?? (() => {});
  const phases: Array<[string, number]> = [];
  const started = Date.now();
  let mark = started;
  const phase = (name: string): void => {
    const now = Date.now();
    phases.push([name, now - mark]);
    log(`${name}: ${((now - mark) / 1000).toFixed(1)} s`);
    mark = now;
  };

  if (target.url !== null && options.database === undefined) await ensureDatabase(target.url);
  const database =
    options.database ?? (await DatabaseService.connect({ url: target.url, pgliteDir: target.pgliteDir }));
  try {
    await database.migrate();
    const db = database.db;
    await db.execute(
      sql`CREATE TABLE IF NOT EXISTS bench_dataset (key text PRIMARY KEY, value jsonb NOT NULL)`,
    );
    await db.execute(sql`DELETE FROM bench_dataset WHERE key = 'spec'`);
    phase('migrate');

    const rebuild = await dropIndexesAndKeys(database, DATA_TABLES);
    await db.execute(
      sql`TRUNCATE webhook_deliveries, webhook_retired_secrets, webhook_subscriptions, client_applications, refresh_tokens, sign_ins, user_customers, users, sync_state, process_eta_history, process_list_items, follow_up_events, process_containers, processes, customers`,
    );
    const customers = simulatorOf(spec).customers();
    await db.execute(sql`
      INSERT INTO customers (id, name)
      SELECT id, name FROM json_to_recordset(${JSON.stringify(customers)}::json) AS c(id text, name text)`);
    phase('drop indexes and keys');

    if (target.url !== null && options.method !== 'insert') await copyRows(target.url, spec, log);
    else await insertRows(database, spec, log);
    phase('rows');

    await db.transaction(async (tx) => {
      // Sorting in memory instead of on disk: index builds are most of the rebuild.
      if (target.url !== null) await tx.execute(sql`SET LOCAL maintenance_work_mem = '1GB'`);
      for (const statement of rebuild) {
        const t = Date.now();
        await tx.execute(sql.raw(statement));
        log(`  ${statement.slice(0, 100)}: ${((Date.now() - t) / 1000).toFixed(1)} s`);
      }
    });
    await db.execute(sql`DELETE FROM bench_dataset WHERE key = 'rebuild'`);
    phase('rebuild indexes and keys');

    // The ETA history sync would have kept, its revisions between the first and the last left out.
    await db.execute(sql`
      INSERT INTO process_eta_history (process_numero, eta, recorded_at)
      SELECT p.numero, e.eta, p.synced_at
        FROM processes p
       CROSS JOIN LATERAL (VALUES (1, p.original_eta), (2, p.eta)) AS e(step, eta)
       WHERE p.original_eta IS NOT NULL AND (e.step = 1 OR p.eta IS DISTINCT FROM p.original_eta)
       ORDER BY p.numero, e.step`);
    phase('ETA history');

    // What sync does as it writes each process, once for all (it reads the events' index); in
    // halves on two of the pool's connections, so on both cores of the machine.
    await Promise.all([0, 1].map((half) => renderListItemsOf(db, sql`hashtext(p.numero) & 1 = ${half}`)));
    phase('list items');

    await db.execute(sql.raw(`VACUUM (ANALYZE) ${[...DATA_TABLES, 'customers'].join(', ')}`));
    phase('vacuum analyze');

    // The processes were replaced: a feed about the old ones would be wrong, so it is refilled.
    await loadChanges(database, options.changes ?? 0, log);
    phase('change feed');

    if (options.createUsers ?? true) await createBenchUsers(database);
    await db.execute(sql`
      INSERT INTO bench_dataset (key, value) VALUES ('spec', ${JSON.stringify(spec)}::jsonb)
      ON CONFLICT (key) DO UPDATE SET value = excluded.value`);
    phase('users');

    const counts = await countDataset(database);
    return { counts, phases, totalMs: Date.now() - started };
  } finally {
    if (options.database === undefined) await database.close();
  }
}

/** The kinds of generated changes and their weights out of 20, about as a sync of busy data records them. */
const GENERATED_KINDS: Array<[string, number]> = [
  ['FOLLOW_ADDED', 9],
  ['STATUS_CHANGED', 4],
  ['PROCESS_UPDATED', 3],
  ['CUSTOMS_CHANGED', 2],
  ['PROCESS_ADDED', 1],
  ['FOLLOW_REMOVED', 1],
];
/** The generated feed's changes are spread evenly over this many days before the load. */
export const GENERATED_CHANGES_DAYS = 7;

/**
 * Replaces the change feed with `count` generated changes (PostgreSQL or PGlite), as if sync had
 * recorded them over the {@link GENERATED_CHANGES_DAYS} days before now: positions 1..count,
 * `recorded_at` increasing with the position, each change about an existing process (taken in a
 * scattered order, so customers get changes in the proportion they have processes, with its
 * status and `updated_at`), kinds mixed as {@link GENERATED_KINDS} with the details each kind
 * carries. The head row ends at `count`, nothing pruned. The feed's indexes are dropped during the
 * insert and rebuilt after, the same way as the data tables'. `count` 0 empties the feed.
 */
export async function loadChanges(
  database: DatabaseService,
  count: number,
  log: (message: string) => void = () => {},
): Promise<void> {
  const db = database.db;
  const started = Date.now();
  const rebuild = await dropIndexesAndKeys(database, ['process_changes']);
  await db.execute(sql`TRUNCATE process_changes`);
  await db.execute(
    sql`UPDATE change_feed_head SET last_position = 0, last_recorded_at = NULL, pruned_through = 0`,
  );
  if (count > 0) {
    const [{ total }] = (await rowsOf<{ total: number }>(
      db,
      sql`SELECT count(*)::int AS total FROM processes`,
    )) as [{ total: number }];
    if (total === 0) throw new Error('--changes needs processes: load them first');
    // Which kind a position gets: a scattered slot out of 20, mapped by the weights above.
    const slots = GENERATED_KINDS.flatMap(([kind, weight]) => Array<string>(weight).fill(kind));
    const kinds = sql.raw(`ARRAY[${slots.map((kind) => `'${kind}'`).join(', ')}]`);
    await db.transaction(async (tx) => {
      await tx.execute(sql`
        CREATE TEMP TABLE bench_change_sources ON COMMIT DROP AS
        SELECT (row_number() OVER (ORDER BY numero) - 1)::bigint AS slot, numero, customer_id, status,
               updated_at, customs_channel
          FROM processes`);
      // 1,000,003 is prime: consecutive positions land on far-apart processes of every customer.
      await tx.execute(sql`
        INSERT INTO process_changes (position, recorded_at, customer_id, numero, kind, status, updated_at, details)
        SELECT c.position, c.recorded_at, s.customer_id, s.numero, c.kind, s.status, s.updated_at,
               -- Compact JSON, as the service's recorder writes it.
               CASE
                 WHEN c.kind = 'STATUS_CHANGED' THEN '{"previousStatus":"IN_TRANSIT"}'::json
                 WHEN c.kind = 'CUSTOMS_CHANGED' THEN
                   ('{"customsChannel":' || coalesce(to_json(s.customs_channel)::text, 'null') || '}')::json
                 WHEN c.kind IN ('FOLLOW_ADDED', 'FOLLOW_REMOVED') THEN ('{"follow":' || (SELECT row_to_json(f) FROM (SELECT
                   'evt_' || lower(s.numero) || '-g' || c.position AS id, 'NOTE' AS code,
                   CASE c.kind WHEN 'FOLLOW_ADDED' THEN 'Atualização de status enviada ao cliente'
                               ELSE 'Cópia dos documentos arquivada no dossiê' END AS description,
                   to_char(s.updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "occurredAt",
                   NULL::json AS location) f)::text || '}')::json
               END
          FROM (SELECT g AS position,
                       now() - make_interval(days => ${GENERATED_CHANGES_DAYS})
                         + make_interval(secs => ${GENERATED_CHANGES_DAYS * 86_400}::float8 * g / ${count}) AS recorded_at,
                       (${kinds})[1 + (g * 7) % ${slots.length}] AS kind,
                       (g * 1000003) % ${total} AS slot
                  FROM generate_series(1::bigint, ${count}::bigint) AS g) AS c
          JOIN bench_change_sources s ON s.slot = c.slot`);
      await tx.execute(sql`
        UPDATE change_feed_head
           SET last_position = ${count}, pruned_through = 0,
               last_recorded_at = (SELECT max(recorded_at) FROM process_changes)`);
    });
    log(`  ${count} changes inserted: ${((Date.now() - started) / 1000).toFixed(1)} s`);
  }
  await db.transaction(async (tx) => {
    if (database.driver === 'postgres') await tx.execute(sql`SET LOCAL maintenance_work_mem = '1GB'`);
    for (const statement of rebuild) await tx.execute(sql.raw(statement));
  });
  await db.execute(sql`DELETE FROM bench_dataset WHERE key = 'rebuild'`);
  await db.execute(sql`VACUUM (ANALYZE) process_changes, change_feed_head`);
}

export async function countDataset(database: DatabaseService): Promise<DatasetCounts> {
  const [row] = await rowsOf<DatasetCounts>(
    database.db,
    sql`SELECT (SELECT count(*)::int FROM processes) AS processes,
               (SELECT count(*)::int FROM follow_up_events) AS events,
               (SELECT count(*)::int FROM process_containers) AS containers,
               (SELECT count(*)::int FROM customers) AS customers`,
  );
  return row!;
}

/** The spec a database was loaded with, or null when it is not a bench database. */
export async function readDatasetSpec(database: DatabaseService): Promise<DatasetSpec | null> {
  const [exists] = await rowsOf<{ found: boolean }>(
    database.db,
    sql`SELECT to_regclass('public.bench_dataset') IS NOT NULL AS found`,
  );
  if (exists?.found !== true) return null;
  const [row] = await rowsOf<{ value: DatasetSpec | string }>(
    database.db,
    sql`SELECT value FROM bench_dataset WHERE key = 'spec'`,
  );
  if (row === undefined) return null;
  return typeof row.value === 'string' ? (JSON.parse(row.value) as DatasetSpec) : row.value;
}

/**
 * Drops the secondary indexes (every index but the primary keys) and the foreign keys of the
 * tables; returns the statements that recreate them, saved first in `bench_dataset`.
 */
async function dropIndexesAndKeys(database: DatabaseService, names: readonly string[]): Promise<string[]> {
  const db = database.db;
  const [pending] = await rowsOf<{ value: string[] | string }>(
    db,
    sql`SELECT value FROM bench_dataset WHERE key = 'rebuild'`,
  );
  const earlier: string[] =
    pending === undefined
      ? []
      : typeof pending.value === 'string'
        ? (JSON.parse(pending.value) as string[])
        : pending.value;
  const tables = sql.raw(names.map((table) => `'${table}'`).join(', '));
  const indexes = await rowsOf<{ name: string; definition: string }>(
    db,
    sql`SELECT i.indexname AS name, i.indexdef AS definition
          FROM pg_indexes i
         WHERE i.schemaname = 'public' AND i.tablename IN (${tables})
           AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conname = i.indexname AND c.contype = 'p')
         ORDER BY i.tablename, i.indexname`,
  );
  const keys = await rowsOf<{ name: string; tableName: string; definition: string }>(
    db,
    sql`SELECT conname AS name, conrelid::regclass::text AS "tableName", pg_get_constraintdef(oid) AS definition
          FROM pg_constraint
         WHERE contype = 'f' AND conrelid::regclass::text IN (${tables})
         ORDER BY conname`,
  );
  // Indexes before keys (a key's check then uses them); a statement listed twice runs once.
  const rebuild = [
    ...new Set([
      ...earlier.filter((statement) => statement.startsWith('CREATE')),
      ...indexes.map((index) => index.definition),
      ...earlier.filter((statement) => statement.startsWith('ALTER')),
      ...keys.map((key) => `ALTER TABLE ${key.tableName} ADD CONSTRAINT ${key.name} ${key.definition}`),
    ]),
  ];
  await db.execute(sql`
    INSERT INTO bench_dataset (key, value) VALUES ('rebuild', ${JSON.stringify(rebuild)}::jsonb)
    ON CONFLICT (key) DO UPDATE SET value = excluded.value`);
  for (const key of keys) {
    await db.execute(sql.raw(`ALTER TABLE ${key.tableName} DROP CONSTRAINT ${key.name}`));
  }
  for (const index of indexes) await db.execute(sql.raw(`DROP INDEX ${index.name}`));
  return rebuild;
}

/** Three COPY streams fed from one pass over the simulator, each waiting for its own drain. */
async function copyRows(url: string, spec: DatasetSpec, log: (message: string) => void): Promise<void> {
  const tables = [
    { table: 'processes', columns: PROCESS_COLUMNS },
    { table: 'process_containers', columns: CONTAINER_COLUMNS },
    { table: 'follow_up_events', columns: EVENT_COLUMNS },
  ];
  const clients = tables.map(() => new pg.Client({ connectionString: url, application_name: 'bench-load' }));
  await Promise.all(clients.map((client) => client.connect()));
  try {
    const streams: CopyStreamQuery[] = [];
    for (const [i, { table, columns }] of tables.entries()) {
      const client = clients[i]!;
      await client.query('BEGIN');
      // FREEZE needs the TRUNCATE in the same transaction; it spares the later VACUUM a full rewrite
      // of hint bits and sets the visibility map, so index-only scans work at once.
      await client.query(`TRUNCATE ${table}`);
      streams.push(
        client.query(copyStreams.from(`COPY ${table} (${columns.join(', ')}) FROM STDIN (FREEZE)`)),
      );
    }
    const [processStream, containerStream, eventStream] = streams as [
      CopyStreamQuery,
      CopyStreamQuery,
      CopyStreamQuery,
    ];
    const syncedAt = spec.now;
    let count = 0;
    let lastLog = Date.now();
    let processText = '';
    let containerText = '';
    let eventText = '';
    const flush = async (): Promise<void> => {
      const waits: Array<Promise<unknown>> = [];
      for (const [stream, text] of [
        [processStream, processText],
        [containerStream, containerText],
        [eventStream, eventText],
      ] as const) {
        if (text !== '' && !stream.write(text)) waits.push(once(stream, 'drain'));
      }
      processText = containerText = eventText = '';
      await Promise.all(waits);
    };
    for (const process of datasetProcesses(spec)) {
      processText += copyLine(processRow(process, syncedAt));
      for (const row of containerRows(process)) containerText += copyLine(row);
      for (const row of eventRows(process)) eventText += copyLine(row);
      if (++count % BATCH === 0) {
        await flush();
        if (Date.now() - lastLog > 10_000) {
          lastLog = Date.now();
          log(`  ${count} processes streamed`);
        }
      }
    }
    await flush();
    for (const stream of streams) {
      stream.end();
      await finished(stream);
    }
    await Promise.all(clients.map((client) => client.query('COMMIT')));
  } finally {
    await Promise.all(clients.map((client) => client.end()));
  }
}

/** PGlite: one `json_to_recordset` INSERT per table per batch, in one transaction. */
async function insertRows(database: DatabaseService, spec: DatasetSpec, log: (message: string) => void) {
  await database.db.transaction(async (tx) => {
    let batch: ReturnType<typeof emptyBatch> = emptyBatch();
    let count = 0;
    const flush = async (): Promise<void> => {
      if (batch.processes.length === 0) return;
      await tx.execute(sql`
        INSERT INTO processes (${sql.raw(PROCESS_COLUMNS.join(', '))})
        SELECT ${sql.raw(PROCESS_COLUMNS.map((column) => (column === 'customs' ? 'customs::jsonb' : column)).join(', '))}
          FROM json_to_recordset(${JSON.stringify(asRecords(PROCESS_COLUMNS, batch.processes))}::json) AS p(
          numero text, customer_id text, status text, type text, mode text, customer_reference text,
          origin_code text, origin_name text, destination_code text, destination_name text,
          shipment_date date, eta date, original_eta date, arrival_date date, customs_channel text,
          customs text, free_time_ends_at date, follow_count integer, updated_at timestamptz, synced_at timestamptz)`);
      if (batch.containers.length > 0) {
        await tx.execute(sql`
          INSERT INTO process_containers (${sql.raw(CONTAINER_COLUMNS.join(', '))})
          SELECT * FROM json_to_recordset(${JSON.stringify(asRecords(CONTAINER_COLUMNS, batch.containers))}::json)
            AS k(process_numero text, container_number text, position smallint)`);
      }
      if (batch.events.length > 0) {
        await tx.execute(sql`
          INSERT INTO follow_up_events (${sql.raw(EVENT_COLUMNS.join(', '))})
          SELECT * FROM json_to_recordset(${JSON.stringify(asRecords(EVENT_COLUMNS, batch.events))}::json)
            AS e(process_numero text, id text, code text, description text, occurred_at timestamptz,
                 location_code text, location_name text)`);
      }
      batch = emptyBatch();
    };
    for (const process of datasetProcesses(spec)) {
      batch.processes.push(processRow(process, spec.now));
      batch.containers.push(...containerRows(process));
      batch.events.push(...eventRows(process));
      if (++count % PGLITE_BATCH === 0) {
        await flush();
        if (count % 20_000 === 0) log(`  ${count} processes inserted`);
      }
    }
    await flush();
  });
}

function emptyBatch() {
  return {
    processes: [] as ReturnType<typeof processRow>[],
    containers: [] as ReturnType<typeof containerRows>,
    events: [] as ReturnType<typeof eventRows>,
  };
}

async function createBenchUsers(database: DatabaseService): Promise<void> {
  const users = new UsersRepository(database);
  const hasher = new PasswordHasher();
  for (const user of Object.values(BENCH_USERS)) {
    await users.create({
      username: user.username,
      passwordHash: await hasher.hash(user.password),
      role: user.role,
      customerIds: [...user.customerIds],
    });
  }
}

/** Creates the database of `url` when it does not exist, from the server's `postgres` database. */
export async function ensureDatabase(url: string): Promise<void> {
  const name = databaseNameOf(url);
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (found.rowCount === 0) await client.query(`CREATE DATABASE "${name.replace(/"/g, '""')}"`);
  } finally {
    await client.end();
  }
}

export function databaseNameOf(url: string): string {
  return decodeURIComponent(new URL(url).pathname.replace(/^\//, ''));
}
