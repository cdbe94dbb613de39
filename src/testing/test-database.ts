import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { DatabaseService, type DatabaseOptions } from '../database/database.service.js';

/**
 * Where database tests run: in-memory PGlite always, and a real PostgreSQL server too when
 * `TEST_DATABASE_URL` is set (each test file gets a throwaway database there, so files can run
 * in parallel and nothing is left behind).
 */
export const TEST_DATABASE_TARGETS: Array<'pglite' | 'postgres'> = process.env.TEST_DATABASE_URL
  ? ['pglite', 'postgres']
  : ['pglite'];

export interface TestDatabase {
  options: DatabaseOptions;
  /** Drops the throwaway PostgreSQL database (no-op for PGlite). */
  drop(): Promise<void>;
}

export async function createTestDatabase(target: 'pglite' | 'postgres'): Promise<TestDatabase> {
  if (target === 'pglite') {
    return { options: { url: null, pgliteDir: 'memory://' }, drop: async () => {} };
  }
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (serverUrl === undefined) throw new Error('TEST_DATABASE_URL is not set');
  const name = `pls_test_${randomBytes(6).toString('hex')}`;
  await withAdminClient(serverUrl, (client) => client.query(`CREATE DATABASE ${name}`));
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    options: { url: url.toString(), pgliteDir: 'memory://' },
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

async function withAdminClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}
