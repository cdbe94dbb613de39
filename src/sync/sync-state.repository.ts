import { sql } from 'drizzle-orm';
import { Injectable } from '@nestjs/common';
import { DatabaseService, type Database } from '../database/database.service.js';
import { DummyValue, GenerateSql, IN_TRANSACTION } from '../database/generate-sql.decorator.js';
import { sqlUtcInstant } from '../database/sql-instant.js';
import { rowsOf, type Executor } from '../database/sql-rows.js';
import type { Transaction } from './process-page.writer.js';

/** A stream's row of `sync_state`, instants as RFC 3339 UTC strings. */
export interface SyncStateRow {
  stream: string;
  watermark: string | null;
  lastStartedAt: string | null;
  lastSucceededAt: string | null;
  lastError: string | null;
  lastProcessedCount: number | null;
  passCursor: string | null;
  passUpdatedSince: string | null;
  passHighWater: string | null;
}

export interface PassProgress {
  cursor: string;
  updatedSince: string | null;
  highWater: string | null;
}

/** To the millisecond: a watermark read back must equal the one written. */
const iso = (column: string) => sqlUtcInstant(sql`${sql.identifier(column)}`, 'millisecond');

/** Reads and writes `sync_state`; the page-level writes take the page's transaction. */
@Injectable()
export class SyncStateRepository {
  private readonly db: Database;

  constructor(database: DatabaseService) {
    this.db = database.db;
  }

  @GenerateSql({ name: 'a stream', params: ['processes'] })
  async read(stream: string, executor: Executor = this.db): Promise<SyncStateRow | null> {
    const [row] = await rowsOf<SyncStateRow>(
      executor,
      sql`SELECT stream, ${iso('watermark')} AS "watermark", ${iso('last_started_at')} AS "lastStartedAt",
                 ${iso('last_succeeded_at')} AS "lastSucceededAt", last_error AS "lastError",
                 last_processed_count AS "lastProcessedCount", pass_cursor AS "passCursor",
                 ${iso('pass_updated_since')} AS "passUpdatedSince", ${iso('pass_high_water')} AS "passHighWater"
            FROM sync_state WHERE stream = ${stream}`,
    );
    return row ?? null;
  }

  @GenerateSql({ name: 'a stream', params: ['processes', DummyValue.INSTANT] })
  async markStarted(stream: string, at: Date): Promise<SyncStateRow> {
    await this.db.execute(sql`
      INSERT INTO sync_state (stream, last_started_at) VALUES (${stream}, ${at.toISOString()})
      ON CONFLICT (stream) DO UPDATE SET last_started_at = excluded.last_started_at`);
    return (await this.read(stream)) as SyncStateRow;
  }

  /** After a page that has a next one: where to resume. */
  @GenerateSql({
    name: "in the page's transaction",
    params: [
      IN_TRANSACTION,
      'processes',
      { cursor: 'c1', updatedSince: null, highWater: '2026-03-01T06:00:00.000Z' },
    ],
  })
  async savePassProgress(tx: Transaction, stream: string, progress: PassProgress): Promise<void> {
    await tx.execute(sql`
      UPDATE sync_state SET pass_cursor = ${progress.cursor}, pass_updated_since = ${progress.updatedSince},
                            pass_high_water = ${progress.highWater}
       WHERE stream = ${stream}`);
  }

  /** After the last page: the watermark moves up (never down) and the pass is over. */
  @GenerateSql({
    name: "in the page's transaction",
    params: [
      IN_TRANSACTION,
      'processes',
      { highWater: '2026-03-01T06:00:00.000Z', succeededAt: DummyValue.INSTANT, processedCount: 1 },
    ],
  })
  async completePass(
    tx: Transaction,
    stream: string,
    pass: { highWater: string | null; succeededAt: Date; processedCount: number },
  ): Promise<void> {
    await tx.execute(sql`
      UPDATE sync_state SET watermark = GREATEST(watermark, ${pass.highWater}::timestamptz),
                            last_succeeded_at = ${pass.succeededAt.toISOString()}, last_error = NULL,
                            last_processed_count = ${pass.processedCount},
                            pass_cursor = NULL, pass_updated_since = NULL, pass_high_water = NULL
       WHERE stream = ${stream}`);
  }

  /** A failed run; `abandonPass` drops a resume point that may be what fails (e.g. a cursor upstream no longer accepts). */
  @GenerateSql({ name: 'keeping the pass', params: ['processes', 'timeout', false] })
  async recordFailure(stream: string, error: string, abandonPass: boolean): Promise<void> {
    const keepPass = !abandonPass;
    await this.db.execute(sql`
      UPDATE sync_state SET last_error = ${error},
                            pass_cursor = CASE WHEN ${keepPass} THEN pass_cursor END,
                            pass_updated_since = CASE WHEN ${keepPass} THEN pass_updated_since END,
                            pass_high_water = CASE WHEN ${keepPass} THEN pass_high_water END
       WHERE stream = ${stream}`);
  }
}
