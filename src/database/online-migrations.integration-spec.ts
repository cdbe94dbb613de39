import { rmSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { migrationsBefore } from '../testing/migrations-before.js';
import {
  createEmptyTestDatabase,
  EMPTY_TEMPLATE_TIMEOUT_MS,
  prepareEmptyTestDatabases,
  TEST_DATABASE_TARGETS,
  type TestDatabase,
} from '../testing/test-database.js';
import { DatabaseService, MIGRATIONS_FOLDER } from './database.service.js';
import { pendingMigrations, requireMigrated } from './migration-status.js';
import { onlineSteps } from './online-migrations.js';
import * as schema from './schema.js';
import { rowsOf } from './sql-rows.js';

const ETA_HISTORY_MIGRATION = '0018_eta_history';
const ONLINE_INDEXES = onlineSteps(MIGRATIONS_FOLDER)
  .flatMap((step) => step.statements)
  .flatMap((statement) => /INDEX CONCURRENTLY IF NOT EXISTS "(\w+)"/.exec(statement)?.[1] ?? []);
/** The constraints the online steps validate. */
const VALIDATED = ['process_eta_history_process_numero_processes_numero_fk', 'process_changes_kind_check'];

describe.each(TEST_DATABASE_TARGETS)('Online migration steps (%s)', (target) => {
  let testDatabase: TestDatabase;
  let database: DatabaseService;

  beforeAll(() => prepareEmptyTestDatabases(target), EMPTY_TEMPLATE_TIMEOUT_MS);
  beforeEach(async () => {
    testDatabase = await createEmptyTestDatabase(target);
    database = await DatabaseService.connect(testDatabase.options);
  });
  afterEach(async () => {
    await database.close();
    await testDatabase.drop();
  });

  const indexValidity = () =>
    rowsOf<{ name: string; valid: boolean }>(
      database.db,
      sql`SELECT c.relname AS name, i.indisvalid AS valid
            FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
           WHERE c.relname IN (${sql.join(
             ONLINE_INDEXES.map((name) => sql`${name}`),
             sql`, `,
           )})
           ORDER BY c.relname`,
    );

  it('builds the indexes and validates the constraints once the migrations are committed', async () => {
    expect(ONLINE_INDEXES).toHaveLength(6);
    await database.migrate();

    expect(await indexValidity()).toEqual([...ONLINE_INDEXES].sort().map((name) => ({ name, valid: true })));
    const constraints = await rowsOf<{ name: string; validated: boolean }>(
      database.db,
      sql`SELECT conname AS name, convalidated AS validated FROM pg_constraint
           WHERE conname IN (${sql.join(
             VALIDATED.map((name) => sql`${name}`),
             sql`, `,
           )}) ORDER BY conname`,
    );
    expect(constraints).toEqual([...VALIDATED].sort().map((name) => ({ name, validated: true })));
    expect(await pendingMigrations(database.db)).toEqual([]);
  });

  it('rebuilds, at the next run, an index that a killed build left invalid, and refuses to serve until then', async () => {
    await database.migrate();
    // What a `npm run migrate` killed during `CREATE INDEX CONCURRENTLY` leaves: the index there
    // but INVALID (never used by a query), and the step not recorded as done.
    await database.db.execute(
      sql`UPDATE pg_index SET indisvalid = false WHERE indexrelid = 'processes_eta_idx'::regclass`,
    );
    await database.db.execute(
      sql`DELETE FROM drizzle.online_migration_steps WHERE tag = ${ETA_HISTORY_MIGRATION}`,
    );
    await expect(requireMigrated(database.db)).rejects.toThrow(
      `1 migration(s) of this release are not applied (${ETA_HISTORY_MIGRATION} first); run \`npm run migrate\``,
    );

    await database.migrate();

    expect((await indexValidity()).find((index) => index.name === 'processes_eta_idx')).toEqual({
      name: 'processes_eta_idx',
      valid: true,
    });
    await expect(requireMigrated(database.db)).resolves.toBeUndefined();
  });
});

(TEST_DATABASE_TARGETS.includes('postgres') ? describe : describe.skip)(
  'Migration 0018 beside reads and sync (postgres)',
  () => {
    /** Enough processes that building six indexes on them and copying their ETAs takes seconds. */
    const PROCESSES = 200_000;
    const BOUND_MS = 1000;
    let testDatabase: TestDatabase;
    let earlier: string;
    let client: pg.Client;

    beforeEach(async () => {
      testDatabase = await createEmptyTestDatabase('postgres');
      earlier = migrationsBefore(ETA_HISTORY_MIGRATION);
      client = new pg.Client({ connectionString: testDatabase.options.url! });
      await client.connect();
      await migrate(drizzle(client), { migrationsFolder: earlier });
      await client.query(`INSERT INTO customers (id, name) VALUES ('acme', 'ACME')`);
    });
    afterEach(async () => {
      await client.end();
      await testDatabase.drop();
      rmSync(earlier, { recursive: true, force: true });
    });

    /** A read and a sync write of one process, again and again until stopped; the longest of each. */
    function readAndWriteMeanwhile(): { stop(): Promise<{ rounds: number; longestMs: number }> } {
      let stopped = false;
      const done = (async () => {
        const session = new pg.Client({ connectionString: testDatabase.options.url! });
        await session.connect();
        let rounds = 0;
        let longestMs = 0;
        try {
          while (!stopped) {
            const started = performance.now();
            await session.query('SELECT numero, eta FROM processes WHERE numero = $1', ['P-1']);
            await session.query('UPDATE processes SET synced_at = now() WHERE numero = $1', ['P-1']);
            longestMs = Math.max(longestMs, performance.now() - started);
            rounds++;
            await new Promise((resolve) => setTimeout(resolve, 20));
          }
        } finally {
          await session.end();
        }
        return { rounds, longestMs };
      })();
      return {
        stop: async () => {
          stopped = true;
          return done;
        },
      };
    }

    it(`holds no lock that blocks a read or a write of processes for ${BOUND_MS} ms, on ${PROCESSES} processes`, async () => {
      await client.query(
        `INSERT INTO processes (numero, customer_id, status, type, mode, origin_code, origin_name,
                                destination_code, destination_name, eta, free_time_ends_at, follow_count, updated_at)
         SELECT 'P-' || g, 'acme', 'IN_TRANSIT', 'IMPORT', 'SEA', 'CNSHA', 'Shanghai', 'BRSSZ', 'Santos',
                date '2026-01-01' + g % 365, CASE WHEN g % 10 = 0 THEN date '2026-03-01' + g % 30 END,
                0, now()
           FROM generate_series(1, ${PROCESSES}) AS g`,
      );
      const database = await DatabaseService.connect(testDatabase.options);
      const meanwhile = readAndWriteMeanwhile();
      try {
        await database.migrate();
      } finally {
        await database.close();
      }
      const { rounds, longestMs } = await meanwhile.stop();

      expect(rounds).toBeGreaterThan(1);
      expect(longestMs).toBeLessThan(BOUND_MS);
      const [history] = await rowsOf<{ count: number }>(
        drizzle(client, { schema }),
        sql`SELECT count(*)::int AS count FROM process_eta_history`,
      );
      expect(history).toEqual({ count: PROCESSES });
    }, 180_000);

    it('gives way to a long query on processes instead of queueing every read behind it, and tries again', async () => {
      await client.query(
        `INSERT INTO processes (numero, customer_id, status, type, mode, origin_code, origin_name,
                                destination_code, destination_name, follow_count, updated_at)
         VALUES ('P-1', 'acme', 'OPEN', 'IMPORT', 'SEA', 'CNSHA', 'Shanghai', 'BRSSZ', 'Santos', 0, now())`,
      );
      // A report holding processes in a transaction: the migration's ACCESS EXCLUSIVE lock waits for it.
      const report = new pg.Client({ connectionString: testDatabase.options.url! });
      await report.connect();
      await report.query('BEGIN');
      await report.query('SELECT count(*) FROM processes');
      const meanwhile = readAndWriteMeanwhile();
      const database = await DatabaseService.connect(testDatabase.options);
      const migrated = database.migrate();
      try {
        // The migration waits for the lock, gives up (rolled back, the reads let through), and asks again.
        await waitUntil(async () => (await waitingForProcesses()) > 0);
        await waitUntil(async () => (await waitingForProcesses()) === 0);
        await waitUntil(async () => (await waitingForProcesses()) > 0);
      } finally {
        await report.query('COMMIT');
        await report.end();
        await migrated.finally(() => database.close());
      }
      const { rounds, longestMs } = await meanwhile.stop();

      expect(rounds).toBeGreaterThan(1);
      expect(longestMs).toBeLessThan(BOUND_MS);
      expect(await pendingMigrations(drizzle(client, { schema }))).toEqual([]);
    });

    async function waitingForProcesses(): Promise<number> {
      const { rows } = await client.query<{ count: number }>(
        `SELECT count(*)::int AS count FROM pg_locks
          WHERE relation = 'processes'::regclass AND mode = 'AccessExclusiveLock' AND NOT granted`,
      );
      return rows[0]!.count;
    }
  },
);

/** Polls `condition` every 20 ms, for 10 s at most. */
async function waitUntil(condition: () => Promise<boolean>): Promise<void> {
  for (let polls = 0; polls < 500; polls++) {
    if (await condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error('condition not met within 10 s');
}
