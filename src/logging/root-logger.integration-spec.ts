import { sql } from 'drizzle-orm';
import type { DestinationStream } from 'pino';
import { DatabaseService } from '../database/database.service.js';
import { createTestDatabase, TEST_DATABASE_TARGETS } from '../testing/test-database.js';
import { PinoNestLogger } from './pino-nest-logger.js';
import { createRootLogger } from './root-logger.js';

const CIPHERTEXT = 'v1.c2VjcmV0LWNpcGhlcnRleHQtb2YtYS13ZWJob29r';
const URL_QUERY = 'token=receiver-own-credential-42';

describe.each(TEST_DATABASE_TARGETS)('Logs of a failed statement (%s)', (target) => {
  let database: DatabaseService;
  let drop: () => Promise<void>;

  beforeAll(async () => {
    const testDatabase = await createTestDatabase(target);
    drop = testDatabase.drop;
    database = await DatabaseService.connect(testDatabase.options);
  });

  afterAll(async () => {
    await database.close();
    await drop();
  });

  /** A statement PostgreSQL refuses (a NUL in text) whose values are a webhook's secret and URL. */
  async function failedStatement(): Promise<Error> {
    const failure = await database.db
      .execute(
        sql`SELECT ${CIPHERTEXT}::text AS secret, ${`https://erp.example.com/hooks?${URL_QUERY}`}::text AS url, ${'a\u0000b'}::text AS refused`,
      )
      .then(
        () => undefined,
        (error: unknown) => error,
      );
    expect(failure).toBeInstanceOf(Error);
    return failure as Error;
  }

  it('carries the SQL template and the error code, never the values bound, however it is logged', async () => {
    const error = await failedStatement();
    const lines: string[] = [];
    const destination: DestinationStream = { write: (line: string) => void lines.push(line) };
    const root = createRootLogger({ logLevel: 'info', nodeEnv: 'test' }, destination);
    const nest = new PinoNestLogger(root);

    root.error({ err: error }, 'request failed');
    root.warn({ msg: 'pruning failed', error: error.message });
    root.warn({ detail: { reason: `${error.message} (retrying)` } }, error.message);
    nest.error(error, 'WebhooksService');
    nest.error(error.message, error.stack, 'ExceptionsHandler');

    const text = lines.join('');
    expect(lines).toHaveLength(5);
    expect(text).not.toContain(CIPHERTEXT);
    expect(text).not.toContain(URL_QUERY);
    expect(text).not.toContain('params:');
    const logged = JSON.parse(lines[0]!) as { err: { message: string; code: string; stack: string } };
    expect(logged.err.message).toContain('Failed query: SELECT $1::text AS secret');
    expect(logged.err.code).toBe('22021');
    expect(logged.err.stack).toMatch(/\n {4}at /);
  });
});
