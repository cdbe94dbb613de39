import { Logger } from '@nestjs/common';
import pg from 'pg';
import { logConnectionLoss } from '../database/connection-loss.js';
import type { DatabaseService } from '../database/database.service.js';

/** Advisory lock key of the sync; any constant no other feature uses (migrations use 7_231_001). */
export const SYNC_LOCK_KEY = 7_231_002;

export type LockedResult<T> = { acquired: true; value: T } | { acquired: false };

/** One sync at a time, across every instance that shares the database. */
export abstract class SyncLock {
  /** Runs `work` holding the lock, or does nothing when another holder has it. */
  abstract tryWithLock<T>(work: () => Promise<T>): Promise<LockedResult<T>>;

  /**
   * PostgreSQL: a session advisory lock on a dedicated connection (a pooled one could change
   * between statements; the lock dies with the connection if the process does). PGlite: one
   * process owns the database, so an in-process flag per database is the whole story.
   */
  static for(database: DatabaseService, url: string | null, timeoutMs?: number): SyncLock {
    return database.driver === 'postgres' && url !== null
      ? new PostgresAdvisorySyncLock(url, SYNC_LOCK_KEY, timeoutMs)
      : new InProcessSyncLock(database);
  }
}

export class PostgresAdvisorySyncLock extends SyncLock {
  constructor(
    private readonly url: string,
    private readonly key = SYNC_LOCK_KEY,
    /** Bounds connecting and each statement, so a silent server cannot hold a sync run forever. */
    private readonly timeoutMs?: number,
  ) {
    super();
  }

  async tryWithLock<T>(work: () => Promise<T>): Promise<LockedResult<T>> {
    const client = new pg.Client({
      connectionString: this.url,
      application_name: 'process-lookup-sync-lock',
      ...(this.timeoutMs !== undefined && {
        connectionTimeoutMillis: this.timeoutMs,
        query_timeout: this.timeoutMs,
      }),
    });
    // A lost lock session fails the run's unlock, not the process; the next run takes a new one.
    client.on('error', (error) =>
      logConnectionLoss(new Logger(SyncLock.name), 'the sync lock connection', error),
    );
    await client.connect();
    try {
      const { rows } = await client.query<{ locked: boolean }>('SELECT pg_try_advisory_lock($1) AS locked', [
        this.key,
      ]);
      if (rows[0]?.locked !== true) return { acquired: false };
      try {
        return { acquired: true, value: await work() };
      } finally {
        await client.query('SELECT pg_advisory_unlock($1)', [this.key]).catch(() => undefined);
      }
    } finally {
      // Closing the session releases the lock even if the unlock above failed.
      await client.end().catch(() => undefined);
    }
  }
}

/** Holders per database object: two services over the same PGlite exclude each other. */
const heldDatabases = new WeakSet<object>();

export class InProcessSyncLock extends SyncLock {
  constructor(private readonly database: object) {
    super();
  }

  async tryWithLock<T>(work: () => Promise<T>): Promise<LockedResult<T>> {
    if (heldDatabases.has(this.database)) return { acquired: false };
    heldDatabases.add(this.database);
    try {
      return { acquired: true, value: await work() };
    } finally {
      heldDatabases.delete(this.database);
    }
  }
}
