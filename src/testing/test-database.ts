import { createHash, randomBytes } from 'node:crypto';
import {
  accessSync,
  constants,
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
} from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { DatabaseService, type DatabaseOptions } from '../database/database.service.js';

/**
 * Where database tests run: PGlite always, and a real PostgreSQL server too when
 * `TEST_DATABASE_URL` is set (each test file gets a throwaway database there, so files can run
 * in parallel and nothing is left behind).
 */
export const TEST_DATABASE_TARGETS: Array<'pglite' | 'postgres'> = process.env.TEST_DATABASE_URL
  ? ['pglite', 'postgres']
  : ['pglite'];

/**
 * Where the suites that boot the whole app run: once, on a real PostgreSQL server when there is
 * one (what production runs), on PGlite otherwise. Every statement still runs on both in the
 * integration tier, and the black-box suite runs the demo, on PGlite, over HTTP.
 */
export const APP_TEST_DATABASE_TARGET: 'pglite' | 'postgres' = process.env.TEST_DATABASE_URL
  ? 'postgres'
  : 'pglite';

export interface TestDatabase {
  options: DatabaseOptions;
  /** Drops the throwaway database. */
  drop(): Promise<void>;
}

const MIGRATIONS = resolve(import.meta.dirname, '../../migrations');
const TEMPLATES = resolve(import.meta.dirname, '../../node_modules/.cache/process-lookup-tests');
/**
 * Where each test's copy of a PGlite cluster (40 MB) lives: in memory (tmpfs) where the machine has
 * one. On this project's 2-core machines a copy and its removal cost about 0.5 s of CPU on disk
 * against 0.08 s in memory.
 */
const THROWAWAY_CLUSTERS = ((): string => {
  try {
    accessSync('/dev/shm', constants.W_OK);
    return '/dev/shm';
  } catch {
    return tmpdir();
  }
})();
const PGLITE_VERSION = (
  JSON.parse(
    readFileSync(
      resolve(import.meta.dirname, '../../node_modules/@electric-sql/pglite/package.json'),
      'utf8',
    ),
  ) as { version: string }
).version;

/**
 * A database already migrated to the current migrations: a copy of a PGlite data directory, or on
 * PostgreSQL a database created from a template. Creating PGlite's cluster (initdb in WASM) takes
 * seconds and is the same for every test, so it is done once per version of the migrations; the
 * service still runs its migrations on the copy, finding them applied, as at a restart.
 */
export async function createTestDatabase(target: 'pglite' | 'postgres'): Promise<TestDatabase> {
  if (target === 'pglite') {
    const directory = join(THROWAWAY_CLUSTERS, `pls-test-${randomBytes(6).toString('hex')}`);
    cpSync(await pgliteTemplate(), directory, { recursive: true });
    return {
      options: { url: null, pgliteDir: directory },
      drop: () => rm(directory, { recursive: true, force: true }),
    };
  }
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (serverUrl === undefined) throw new Error('TEST_DATABASE_URL is not set');
  const template = await postgresTemplate(serverUrl);
  const name = `pls_test_${randomBytes(6).toString('hex')}`;
  await withAdminClient(serverUrl, (client) => client.query(`CREATE DATABASE ${name} TEMPLATE ${template}`));
  return {
    options: { url: databaseUrl(serverUrl, name), pgliteDir: 'memory://' },
    drop: async () => {
      await withAdminClient(serverUrl, (client) =>
        client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
      );
    },
  };
}

/**
 * How long a hook that builds the empty PGlite cluster may take: the first on a machine runs an
 * initdb, which beside CI's other work takes longer than Jest's 30 s.
 */
export const EMPTY_TEMPLATE_TIMEOUT_MS = 120_000;

/**
 * Builds the empty PGlite cluster {@link createEmptyTestDatabase} copies, when this machine has none
 * yet: from a `beforeAll` given {@link EMPTY_TEMPLATE_TIMEOUT_MS}, so that no test or 30 s hook
 * pays for the initdb. A PostgreSQL server needs nothing prepared.
 */
export async function prepareEmptyTestDatabases(target: 'pglite' | 'postgres'): Promise<void> {
  if (target === 'pglite') await pgliteEmptyTemplate();
}

/** A database with nothing in it, not even the migrations' bookkeeping: what a deployment starts from. */
export async function createEmptyTestDatabase(target: 'pglite' | 'postgres'): Promise<TestDatabase> {
  if (target === 'pglite') {
    const directory = join(THROWAWAY_CLUSTERS, `pls-test-${randomBytes(6).toString('hex')}`);
    cpSync(await pgliteEmptyTemplate(), directory, { recursive: true });
    return {
      options: { url: null, pgliteDir: directory },
      drop: () => rm(directory, { recursive: true, force: true }),
    };
  }
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (serverUrl === undefined) throw new Error('TEST_DATABASE_URL is not set');
  const name = `pls_test_${randomBytes(6).toString('hex')}`;
  await withAdminClient(serverUrl, (client) => client.query(`CREATE DATABASE ${name}`));
  return {
    options: { url: databaseUrl(serverUrl, name), pgliteDir: 'memory://' },
    drop: async () => {
      await withAdminClient(serverUrl, (client) =>
        client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
      );
    },
  };
}

/** A connected, migrated database service for repository tests. */
export async function connectTestDatabase(
  target: 'pglite' | 'postgres',
  extra: Pick<DatabaseOptions, 'queryLogger'> = {},
): Promise<{ database: DatabaseService; options: DatabaseOptions; dispose(): Promise<void> }> {
  const testDatabase = await createTestDatabase(target);
  const database = await DatabaseService.connect({ ...testDatabase.options, ...extra });
  await database.migrate();
  return {
    database,
    options: testDatabase.options,
    dispose: async () => {
      await database.close();
      await testDatabase.drop();
    },
  };
}

/** A name that changes whenever a migration is added or edited. */
function migrationsVersion(): string {
  const hash = createHash('sha256');
  for (const file of readdirSync(MIGRATIONS, { recursive: true, encoding: 'utf8' }).sort()) {
    const path = join(MIGRATIONS, file);
    if (file.endsWith('.sql') || file.endsWith('.json')) hash.update(file).update(readFileSync(path));
  }
  return hash.digest('hex').slice(0, 16);
}

/**
 * Set in every test cluster, and part of its cache name. initdb's 128 MB of shared buffers are
 * zeroed at each start: 0.75 s of CPU and 500 MB of memory per database opened, against 0.3 s and
 * 230 MB with 16 MB, plenty for a test's rows (the embedded demo keeps initdb's defaults).
 */
const TEST_CLUSTER_SETTINGS = { shared_buffers: '16MB' };
const SETTINGS_VERSION = createHash('sha256')
  .update(JSON.stringify(TEST_CLUSTER_SETTINGS))
  .digest('hex')
  .slice(0, 8);

/** A migrated cluster, built once per version of PGlite, of the migrations and of the settings. */
function pgliteTemplate(): Promise<string> {
  return cachedPgliteCluster(
    `pglite-${PGLITE_VERSION}-${SETTINGS_VERSION}-${migrationsVersion()}`,
    (database) => database.migrate(),
  );
}

/** A cluster with nothing in it: initdb (about 6 s of WASM) once per version of PGlite and settings. */
function pgliteEmptyTemplate(): Promise<string> {
  return cachedPgliteCluster(`pglite-empty-${PGLITE_VERSION}-${SETTINGS_VERSION}`, () => Promise.resolve());
}

/**
 * A PGlite data directory kept for later runs under `name`, prepared by `prepare` the first time.
 * Built by whichever test file needs it first; parallel workers race to a rename, and one wins.
 */
async function cachedPgliteCluster(
  name: string,
  prepare: (database: DatabaseService) => Promise<unknown>,
): Promise<string> {
  const template = join(TEMPLATES, name);
  if (existsSync(template)) return template;
  mkdirSync(TEMPLATES, { recursive: true });
  const building = `${template}.${randomBytes(4).toString('hex')}.building`;
  const database = await DatabaseService.connect({ url: null, pgliteDir: building });
  for (const [name, value] of Object.entries(TEST_CLUSTER_SETTINGS)) {
    // Written to postgresql.auto.conf: every copy starts with it.
    await database.db.execute(sql.raw(`ALTER SYSTEM SET ${name} = '${value}'`));
  }
  await prepare(database);
  await database.close();
  try {
    renameSync(building, template);
  } catch {
    rmSync(building, { recursive: true, force: true }); // another worker's rename won
  }
  return template;
}

/** A migrated database on the server, named after the migrations, kept for later runs. */
async function postgresTemplate(serverUrl: string): Promise<string> {
  const name = `pls_template_${migrationsVersion()}`;
  const exists = await withAdminClient(serverUrl, (client) =>
    client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]),
  );
  if (exists.rowCount === 1) return name;
  const building = `${name}_${randomBytes(4).toString('hex')}`;
  await withAdminClient(serverUrl, (client) => client.query(`CREATE DATABASE ${building}`));
  const database = await DatabaseService.connect({
    url: databaseUrl(serverUrl, building),
    pgliteDir: 'memory://',
  });
  await database.migrate();
  await database.close();
  try {
    await withAdminClient(serverUrl, (client) =>
      client.query(`ALTER DATABASE ${building} RENAME TO ${name}`),
    );
  } catch {
    await withAdminClient(serverUrl, (client) => client.query(`DROP DATABASE ${building} WITH (FORCE)`));
  }
  return name;
}

function databaseUrl(serverUrl: string, name: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

async function withAdminClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}
