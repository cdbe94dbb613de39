import { sql } from 'drizzle-orm';
import { createTestDatabase, TEST_DATABASE_TARGETS } from '../testing/test-database.js';
import { DatabaseService } from './database.service.js';

const onPostgres = TEST_DATABASE_TARGETS.includes('postgres') ? describe : describe.skip;

onPostgres(`${DatabaseService.name} (postgres)`, () => {
  it('plans every execution of a prepared statement afresh and never JIT-compiles, whatever options DATABASE_URL carries', async () => {
    const testDatabase = await createTestDatabase('postgres');
    const url = new URL(testDatabase.options.url!);
    url.searchParams.set('options', '-c statement_timeout=60000');
    const database = await DatabaseService.connect({ ...testDatabase.options, url: url.toString() });
    try {
      const settings = await Promise.all(
        Array.from({ length: 3 }, () =>
          database.db
            .select({
              planCacheMode: sql<string>`current_setting('plan_cache_mode')`,
              statementTimeout: sql<string>`current_setting('statement_timeout')`,
              jit: sql<string>`current_setting('jit')`,
            })
            .from(sql`(SELECT 1) AS one`),
        ),
      );

      // Three at once: three connections of the pool, each set.
      expect(settings.flat()).toEqual(
        Array.from({ length: 3 }, () => ({
          planCacheMode: 'force_custom_plan',
          statementTimeout: '1min',
          jit: 'off',
        })),
      );
    } finally {
      await database.close();
      await testDatabase.drop();
    }
  });

  it('keeps the change feed page’s generic plans for the session, never JIT-compiled, whatever the caller’s settings', async () => {
    const testDatabase = await createTestDatabase('postgres');
    const database = await DatabaseService.connect(testDatabase.options);
    try {
      await database.migrate();
      const [page] = await database.db
        .select({ settings: sql<string[]>`proconfig` })
        .from(sql`pg_proc`)
        .where(sql`proname = 'change_feed_page'`);

      expect(page).toEqual({ settings: ['plan_cache_mode=force_generic_plan', 'jit=off'] });
    } finally {
      await database.close();
      await testDatabase.drop();
    }
  });

  it('bounds every statement with the configured timeout, over whatever DATABASE_URL carries', async () => {
    const testDatabase = await createTestDatabase('postgres');
    const url = new URL(testDatabase.options.url!);
    url.searchParams.set('options', '-c statement_timeout=60000');
    const database = await DatabaseService.connect({
      ...testDatabase.options,
      url: url.toString(),
      statementTimeoutMs: 300,
    });
    try {
      await expect(database.db.execute(sql`SELECT pg_sleep(2)`)).rejects.toMatchObject({
        cause: expect.objectContaining({ code: '57014' }),
      });
      // The connection that timed out is still good for the next statement.
      await expect(database.ping()).resolves.toBeUndefined();
    } finally {
      await database.close();
      await testDatabase.drop();
    }
  });
});
