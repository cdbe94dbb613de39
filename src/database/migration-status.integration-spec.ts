import { readFileSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import {
  createEmptyTestDatabase,
  EMPTY_TEMPLATE_TIMEOUT_MS,
  prepareEmptyTestDatabases,
  TEST_DATABASE_TARGETS,
  type TestDatabase,
} from '../testing/test-database.js';
import { MIGRATIONS_FOLDER, DatabaseService } from './database.service.js';
import { pendingMigrations, requireMigrated } from './migration-status.js';
import { rowsOf } from './sql-rows.js';

const JOURNAL = JSON.parse(readFileSync(`${MIGRATIONS_FOLDER}/meta/_journal.json`, 'utf8')) as {
  entries: Array<{ tag: string; when: number }>;
};
const ALL_TAGS = JOURNAL.entries.map((entry) => entry.tag);

describe.each(TEST_DATABASE_TARGETS)('Migration status (%s)', (target) => {
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

  it('refuses a database never migrated, naming the first migration missing and what to run', async () => {
    expect(await pendingMigrations(database.db)).toEqual(ALL_TAGS);
    await expect(requireMigrated(database.db)).rejects.toThrow(
      `${ALL_TAGS.length} migration(s) of this release are not applied (${ALL_TAGS[0]} first); run \`npm run migrate\``,
    );
  });

  it('accepts a database migrated by this release, or by a later one', async () => {
    await database.migrate();
    expect(await pendingMigrations(database.db)).toEqual([]);

    // A later release's migration, applied by its `npm run migrate` before this release's instances are replaced.
    const later = JOURNAL.entries.at(-1)!.when + 86_400_000;
    await database.db.execute(
      sql`INSERT INTO drizzle.__drizzle_migrations (hash, created_at) VALUES ('later', ${later})`,
    );
    await expect(requireMigrated(database.db)).resolves.toBeUndefined();
  });
});

(TEST_DATABASE_TARGETS.includes('postgres') ? describe : describe.skip)(
  'Migrating from several instances at once (postgres)',
  () => {
    it('applies each migration once, whichever instance gets there first', async () => {
      const testDatabase = await createEmptyTestDatabase('postgres');
      const instances = await Promise.all(
        Array.from({ length: 4 }, () => DatabaseService.connect(testDatabase.options)),
      );
      try {
        await Promise.all(instances.map((instance) => instance.migrate()));

        const applied = await rowsOf<{ created_at: string }>(
          instances[0]!.db,
          sql`SELECT created_at::text FROM drizzle.__drizzle_migrations ORDER BY id`,
        );
        expect(applied.map((row) => Number(row.created_at))).toEqual(
          JOURNAL.entries.map((entry) => entry.when),
        );
      } finally {
        await Promise.all(instances.map((instance) => instance.close()));
        await testDatabase.drop();
      }
    });
  },
);
