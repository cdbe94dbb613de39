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
import {
  PostgresNotificationListener,
  type NotificationHandler,
  type NotificationSubscription,
} from './notification-listener.js';
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
      () => migratePglite(db, { migrationsFolder: MIGRATIONS_FOLDER }),
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

/** Migrates over one dedicated session so a session-level advisory lock covers the whole run. */
async function migrateWithLock(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  client.on('error', (error) =>
    logConnectionLoss(new Logger(DatabaseService.name), 'the migration connection', error),
  );
  await client.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    await migrateNodePostgres(drizzleNodePostgres(client, { schema }), {
      migrationsFolder: MIGRATIONS_FOLDER,
    });
  } finally {
    await client.end();
  }
}
