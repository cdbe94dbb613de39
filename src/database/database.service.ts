import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { Logger, OnApplicationShutdown } from '@nestjs/common';
import { sql } from 'drizzle-orm';
import type { Logger as QueryLogger } from 'drizzle-orm/logger';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzleNodePostgres } from 'drizzle-orm/node-postgres';
import { migrate as migrateNodePostgres } from 'drizzle-orm/node-postgres/migrator';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { logConnectionLoss } from './connection-loss.js';
import { applySessionSettings } from './session-settings.js';
import { watchForSilence } from './silence-watchdog.js';
import { TracedPgClient } from './traced-pg-client.js';
import {
  PostgresNotificationListener,
  type NotificationHandler,
  type NotificationSubscription,
} from './notification-listener.js';
import { onlineSteps, runOnlineSteps } from './online-migrations.js';
import * as schema from './schema.js';

/** One query API over both drivers: PGlite and node-postgres share drizzle's PostgreSQL core. */
export type Database = PgDatabase<PgQueryResultHKT, typeof schema>;

export interface DatabaseOptions {
  /** A PostgreSQL server; `null` for the embedded PGlite. */
  url: string | null;
  /** PGlite data directory, or `memory://` for a throwaway in-memory database. */
  pgliteDir: string;
  /**
   * PostgreSQL: bounds each statement on the server, each wait for a connection, and each answer
   * on the client (a server that stops answering without closing the socket). Unset: unbounded,
   * for tools that run long statements (migrations run on a connection of their own either way).
   */
  statementTimeoutMs?: number;
  /** Sees every statement the service's queries send (tests count them; debugging). */
  queryLogger?: QueryLogger;
  /**
   * Prepared statements planned anew for each execution's values (default), as the lists need;
   * false leaves PostgreSQL its generic plans, for a pool whose statements plan alike whatever
   * the values (webhook delivery's).
   */
  customPlans?: boolean;
}

/** How much longer than the server's own timeout the client waits before it gives up on a reply. */
const CLIENT_TIMEOUT_MARGIN_MS = 1000;

/** Same path from `src/database` (tests) and `dist/database` (built service). */
export const MIGRATIONS_FOLDER = resolve(dirname(fileURLToPath(import.meta.url)), '../../migrations');
/** Serialises migrations when several instances start at once against one server. */
const MIGRATION_LOCK_KEY = 7_231_001;
/** How often a second `npm run migrate` asks for the lock while the first holds it. */
const MIGRATION_LOCK_POLL_MS = 200;
/**
 * The longest a migration waits for a table's lock. Waiting, it would queue every read and write
 * of that table behind it (behind a long query, say); past this it rolls back, lets them through
 * and tries again, and is the one to give way in a deadlock (PostgreSQL looks for those after 1 s).
 */
const MIGRATION_LOCK_TIMEOUT_MS = 500;
const MIGRATION_ATTEMPTS = 20;
const LOCK_NOT_AVAILABLE = '55P03';
const DEADLOCK_DETECTED = '40P01';

/**
 * The database connection: PGlite in-process by default, a `pg` pool when a URL is given.
 * Owns the connection's lifecycle and applies the same SQL migrations to either.
 */
export class DatabaseService implements OnApplicationShutdown {
  private readonly logger = new Logger(DatabaseService.name);

  private constructor(
    readonly db: Database,
    readonly driver: 'pglite' | 'postgres',
    private readonly migrateImpl: () => Promise<void>,
    private readonly closeImpl: () => Promise<void>,
    private readonly listenImpl: (
      channel: string,
      onNotify: NotificationHandler,
    ) => Promise<NotificationSubscription>,
  ) {}

  static async connect(options: DatabaseOptions): Promise<DatabaseService> {
    const logger = new Logger(DatabaseService.name);
    if (options.url !== null) {
      const pool = new pg.Pool({
        connectionString: options.url,
        // Statements inside a traced request are spans of it (nothing is recorded untraced).
        Client: TracedPgClient,
        max: 10,
        application_name: 'process-lookup',
        keepAlive: true,
        ...(options.statementTimeoutMs !== undefined && {
          connectionTimeoutMillis: options.statementTimeoutMs,
        }),
        // Awaited before the pool hands the connection out, so nothing runs beside it.
        // @types/pg declares a void hook, but pg-pool awaits the promise it returns.
        // eslint-disable-next-line @typescript-eslint/no-misused-promises
        onConnect: async (client: pg.ClientBase) => {
          // A checked-out connection lost between two statements (inside a transaction) reports
          // here; the pool's own listener covers only idle ones.
          client.on('error', (error) => logConnectionLoss(logger, 'a connection in use', error));
          if (options.statementTimeoutMs !== undefined) {
            watchForSilence(
              client as pg.Client,
              options.statementTimeoutMs + CLIENT_TIMEOUT_MARGIN_MS,
              logger,
            );
          }
          await applySessionSettings(client, options.statementTimeoutMs, options.customPlans);
        },
      });
      // An idle connection the server closes (a restart, a failover, pg_terminate_backend, a proxy
      // timing out) is reported here; without a listener it would be an uncaught 'error' event.
      pool.on('error', (error) => logConnectionLoss(logger, 'a pooled connection', error));
      const db = drizzleNodePostgres(pool, { schema, logger: options.queryLogger });
      return new DatabaseService(
        db,
        'postgres',
        () => migrateWithLock(options.url as string),
        () => pool.end(),
        async (channel, onNotify) => {
          const listener = new PostgresNotificationListener(options.url as string, channel, onNotify);
          await listener.start();
          return listener;
        },
      );
    }
    if (!options.pgliteDir.startsWith('memory://')) {
      mkdirSync(options.pgliteDir, { recursive: true });
    }
    const client = await PGlite.create(options.pgliteDir);
    const db = drizzlePglite(client, { schema, logger: options.queryLogger });
    return new DatabaseService(
      db,
      'pglite',
      async () => {
        await migratePglite(db, { migrationsFolder: MIGRATIONS_FOLDER });
        await runOnlineSteps(
          (text, params) => client.query(text, params),
          onlineSteps(MIGRATIONS_FOLDER),
          (message) => logger.log(message),
        );
      },
      () => client.close(),
      async (channel, onNotify) => {
        const unlisten = await client.listen(channel, (payload) => onNotify(payload));
        onNotify(undefined);
        return { close: () => unlisten() };
      },
    );
  }

  async migrate(): Promise<void> {
    await this.migrateImpl();
    this.logger.log(`Migrations applied (${this.driver})`);
  }

  /** Readiness probe: a round trip to the database. */
  async ping(): Promise<void> {
    await this.db.execute(sql`SELECT 1`);
  }

  /**
   * Calls `onNotify` with each NOTIFY payload sent on `channel` (at the sender's commit, from any
   * instance), and with none once subscribed and after each reconnection, when some may have been
   * missed. PostgreSQL: one dedicated connection per subscription; PGlite: in-process.
   */
  listen(channel: string, onNotify: NotificationHandler): Promise<NotificationSubscription> {
    return this.listenImpl(channel, onNotify);
  }

  async close(): Promise<void> {
    await this.closeImpl();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.close();
  }
}

/**
 * Migrates over one dedicated session so a session-level advisory lock covers the whole run:
 * drizzle's transaction (every pending migration), then the online steps after its commit.
 */
async function migrateWithLock(url: string): Promise<void> {
  const logger = new Logger(DatabaseService.name);
  const client = new pg.Client({ connectionString: url });
  client.on('error', (error) => logConnectionLoss(logger, 'the migration connection', error));
  await client.connect();
  try {
    await acquireMigrationLock(client);
    await migrateYieldingLocks(client);
    await runOnlineSteps(
      (text, params) => client.query(text, params),
      onlineSteps(MIGRATIONS_FOLDER),
      (message) => logger.log(message),
    );
  } finally {
    await client.end();
  }
}

/** drizzle's transaction, rolled back and tried again whenever a table's lock is not granted in time. */
async function migrateYieldingLocks(client: pg.Client): Promise<void> {
  const logger = new Logger(DatabaseService.name);
  await client.query(`SET lock_timeout = ${MIGRATION_LOCK_TIMEOUT_MS}`);
  for (let attempt = 1; ; attempt++) {
    try {
      await migrateNodePostgres(drizzleNodePostgres(client, { schema }), {
        migrationsFolder: MIGRATIONS_FOLDER,
      });
      break;
    } catch (error) {
      if (!lockNotGranted(error) || attempt === MIGRATION_ATTEMPTS) {
        throw error;
      }
      logger.warn(`Migration rolled back, a table's lock not granted in time; attempt ${attempt + 1} in 1 s`);
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
  }
  // The online steps wait for other transactions to end, which is no lock that blocks anyone.
  await client.query('RESET lock_timeout');
}

/** A lock wait that timed out, or a deadlock: drizzle wraps the driver's error (`cause`). */
function lockNotGranted(error: unknown): boolean {
  const code = (error instanceof Error ? (error.cause ?? error) : error) as { code?: unknown };
  return code.code === LOCK_NOT_AVAILABLE || code.code === DEADLOCK_DETECTED;
}

/**
 * Asked for again and again rather than waited for in one statement: a session waiting inside a
 * statement holds a snapshot, which the lock holder's `CREATE INDEX CONCURRENTLY` would wait for
 * in turn (a deadlock PostgreSQL resolves by cancelling one of the two).
 */
async function acquireMigrationLock(client: pg.Client): Promise<void> {
  for (;;) {
    const { rows } = await client.query<{ locked: boolean }>('SELECT pg_try_advisory_lock($1) AS locked', [
      MIGRATION_LOCK_KEY,
    ]);
    if (rows[0]?.locked === true) return;
    await new Promise((resolve) => setTimeout(resolve, MIGRATION_LOCK_POLL_MS));
  }
}
