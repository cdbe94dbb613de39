import { BeforeApplicationShutdown, Inject, Injectable, Logger, Optional } from '@nestjs/common';
import { DrizzleQueryError } from 'drizzle-orm/errors';
import { Clock } from '../common/clock.js';
import { DatabaseService } from '../database/database.service.js';
import { ChangeFeedMetrics } from '../changes/change-feed.metrics.js';
import { SyncMetrics } from './sync.metrics.js';
import { OperationsGateway } from '../operations/operations.gateway.js';
import type { OperationsProcess } from '../operations/operations.types.js';
import { preparePage } from './prepare-page.js';
import { isDataError } from '../database/sql-rows.js';
import { ProcessPageWriter, type PageWriteResult, type Transaction } from './process-page.writer.js';
import { SyncLock } from './sync-lock.js';
import { SyncStateRepository, type SyncStateRow } from './sync-state.repository.js';
import {
  DEFAULT_SYNC_OPTIONS,
  SYNC_OPTIONS,
  type SyncOptions,
  type SyncOutcome,
  type SyncRunStatus,
  type SyncStatus,
} from './sync.types.js';

export const SKIPPED_ANOTHER_RUNNING = 'skipped: another sync is running';

interface Counts {
  pages: number;
  fetched: number;
  processed: number;
  skipped: number;
  rejected: number;
}

const NO_COUNTS: Counts = { pages: 0, fetched: 0, processed: 0, skipped: 0, rejected: 0 };

interface PassResult extends Counts {
  status: Exclude<SyncRunStatus, 'skipped'>;
  detail: string | null;
}

/**
 * Pulls changed processes from the operations system into the database.
 *
 * A pass asks for changes since the stored watermark (minus a small overlap) and pages with the
 * upstream cursor until there is none. Each page is one transaction: its writes and the resume
 * point, so a failure at any moment loses nothing and duplicates nothing; the next run resumes
 * after the last committed page. The watermark moves only when a pass completes, to the greatest
 * `updatedAt` it saw: with a keyset feed a process that changes during the pass comes again later
 * in the same pass, so nothing is skipped. Writes are idempotent and never let an older copy
 * overwrite a newer one. One run at a time across instances (advisory lock); a run asked for
 * while one is going on in this process joins it.
 */
@Injectable()
export class SyncService implements BeforeApplicationShutdown {
  private readonly logger = new Logger(SyncService.name);
  private readonly options: SyncOptions;
  private inFlight: Promise<SyncOutcome> | null = null;
  private lastOutcome: SyncOutcome | null = null;
  private stopping = false;

  constructor(
    private readonly database: DatabaseService,
    private readonly gateway: OperationsGateway,
    private readonly lock: SyncLock,
    private readonly clock: Clock,
    private readonly state: SyncStateRepository,
    private readonly writer: ProcessPageWriter,
    @Optional() @Inject(SYNC_OPTIONS) options?: Partial<SyncOptions>,
    @Optional() private readonly metrics?: SyncMetrics,
    @Optional() private readonly feedMetrics?: ChangeFeedMetrics,
  ) {
    this.options = { ...DEFAULT_SYNC_OPTIONS, ...options };
  }

  /** One pass; resolves (never rejects) with its outcome, also kept for {@link getLastOutcome}. */
  run(): Promise<SyncOutcome> {
    this.inFlight ??= this.runExclusively().finally(() => {
      this.inFlight = null;
    });
    return this.inFlight;
  }

  /** Stops after the page being written, and waits for that. */
  async stop(): Promise<void> {
    this.stopping = true;
    await this.inFlight;
  }

  /** On shutdown (the database closes after this): no new page, and the current one finishes. */
  beforeApplicationShutdown(): Promise<void> {
    return this.stop();
  }

  get running(): boolean {
    return this.inFlight !== null;
  }

  getLastOutcome(): SyncOutcome | null {
    return this.lastOutcome;
  }

  async getStatus(): Promise<SyncStatus> {
    const row = await this.state.read(this.options.stream);
    return {
      stream: this.options.stream,
      watermark: row?.watermark ?? null,
      lastStartedAt: row?.lastStartedAt ?? null,
      lastSucceededAt: row?.lastSucceededAt ?? null,
      lastError: row?.lastError ?? null,
      lastProcessedCount: row?.lastProcessedCount ?? null,
      passInProgress: (row?.passCursor ?? null) !== null,
      lagSeconds: this.lagSeconds(row?.lastSucceededAt ?? null),
      running: this.running,
    };
  }

  private async runExclusively(): Promise<SyncOutcome> {
    const started = this.clock.now();
    let result: PassResult | null;
    let lastSucceededAt: string | null = null;
    try {
      const locked = await this.lock.tryWithLock(() => this.pass(started));
      result = locked.acquired ? locked.value : null;
      lastSucceededAt = (await this.state.read(this.options.stream))?.lastSucceededAt ?? null;
    } catch (error) {
      // The database itself failed (lock connection, state row): nothing more can be recorded.
      result = { status: 'failed', detail: describe(error), ...NO_COUNTS };
    }
    const finished = this.clock.now();
    const outcome: SyncOutcome = {
      stream: this.options.stream,
      ...(result ?? { status: 'skipped', detail: SKIPPED_ANOTHER_RUNNING, ...NO_COUNTS }),
      startedAt: started.toISOString(),
      finishedAt: finished.toISOString(),
      durationMs: finished.getTime() - started.getTime(),
      lagSeconds: this.lagSeconds(lastSucceededAt),
    };
    this.lastOutcome = outcome;
    this.logOutcome(outcome);
    this.metrics?.runFinished(outcome);
    return outcome;
  }

  private async pass(started: Date): Promise<PassResult> {
    const { stream, pageSize } = this.options;
    if (this.stopping) return { status: 'interrupted', detail: 'shutting down', ...NO_COUNTS };
    const state = await this.state.markStarted(stream, started);
    const resuming = state.passCursor !== null;
    const updatedSince = resuming ? state.passUpdatedSince : this.sinceWatermark(state);
    let cursor = resuming ? state.passCursor : null;
    let highWater = resuming ? state.passHighWater : null;
    const counts: Counts = { ...NO_COUNTS };

    for (;;) {
      if (this.stopping) return { status: 'interrupted', detail: 'stopped between pages', ...counts };
      let items: OperationsProcess[];
      let nextCursor: string | null;
      try {
        ({ items, nextCursor } = await this.gateway.listChangedProcesses({
          updatedSince,
          cursor,
          limit: pageSize,
        }));
        if (nextCursor !== null && nextCursor === cursor) {
          throw new Error('the operations system returned the same cursor again');
        }
      } catch (error) {
        // A resumed pass failing at once may be failing because of its old cursor: start over next time.
        return this.fail(describe(error), resuming && counts.pages === 0, counts);
      }

      const page = preparePage(items);
      for (const { numero, reason } of page.rejected) {
        this.logger.warn({ msg: 'sync refused an item', stream, numero, reason });
      }
      if (page.highWaterMs !== null && (highWater === null || page.highWaterMs > Date.parse(highWater))) {
        highWater = new Date(page.highWaterMs).toISOString();
      }
      let written: PageWriteResult;
      try {
        written = await this.writePage(page.processes, async (tx, result) => {
          if (nextCursor === null) {
            await this.state.completePass(tx, stream, {
              highWater,
              succeededAt: this.clock.now(),
              processedCount: counts.processed + result.written,
            });
          } else {
            await this.state.savePassProgress(tx, stream, { cursor: nextCursor, updatedSince, highWater });
          }
        });
      } catch (error) {
        return this.fail(describe(error), false, counts);
      }

      this.feedMetrics?.changesRecorded(written.recorded);
      counts.pages += 1;
      counts.fetched += items.length;
      counts.processed += written.written;
      counts.skipped += written.unchanged;
      counts.rejected += page.rejected.length + written.refused.length;
      for (const { numero, reason } of written.refused) {
        this.logger.warn({ msg: 'sync refused an item', stream, numero, reason });
      }
      if (nextCursor === null) return { status: 'succeeded', detail: null, ...counts };
      cursor = nextCursor;
    }
  }

  /**
   * The page's writes and the progress record in one transaction. A data error (one bad item the
   * schema refuses) rolls it back; the page is then written again one process at a time so
   * only the offender is refused.
   */
  private async writePage(
    processes: OperationsProcess[],
    recordProgress: (tx: Transaction, result: PageWriteResult) => Promise<void>,
  ): Promise<PageWriteResult> {
    const { db } = this.database;
    try {
      return await db.transaction(async (tx) => {
        const result = await this.writer.write(tx, processes);
        await recordProgress(tx, result);
        return result;
      });
    } catch (error) {
      if (!isDataError(error)) throw error;
      return db.transaction(async (tx) => {
        const result = await this.writer.writeEach(tx, processes);
        await recordProgress(tx, result);
        return result;
      });
    }
  }

  private async fail(detail: string, abandonPass: boolean, counts: Counts): Promise<PassResult> {
    try {
      await this.state.recordFailure(this.options.stream, detail, abandonPass);
    } catch (error) {
      this.logger.error({ msg: 'sync could not record its failure', error: describe(error) });
    }
    return { status: 'failed', detail, ...counts };
  }

  private sinceWatermark(state: SyncStateRow): string | null {
    if (state.watermark === null) return null;
    return new Date(Date.parse(state.watermark) - this.options.overlapSeconds * 1000).toISOString();
  }

  private lagSeconds(lastSucceededAt: string | null): number | null {
    if (lastSucceededAt === null) return null;
    return Math.max(0, Math.round((this.clock.now().getTime() - Date.parse(lastSucceededAt)) / 1000));
  }

  private logOutcome(outcome: SyncOutcome): void {
    const { stream, status, detail, processed, skipped, rejected, fetched, pages, durationMs, lagSeconds } =
      outcome;
    const line = {
      msg: 'sync run',
      stream,
      status,
      processed,
      skipped,
      rejected,
      fetched,
      pages,
      durationMs,
      lagSeconds,
      ...(detail === null ? {} : { detail }),
    };
    if (status === 'failed') this.logger.error(line);
    else if (status === 'skipped' || status === 'interrupted') this.logger.warn(line);
    else this.logger.log(line);
  }
}

/** A short, safe text for logs and `last_error`: never drizzle's SQL text with a page of parameters. */
function describe(error: unknown): string {
  const root = error instanceof DrizzleQueryError && error.cause instanceof Error ? error.cause : error;
  const text = root instanceof Error ? `${root.name}: ${root.message}` : String(root);
  return text.length > 500 ? `${text.slice(0, 497)}...` : text;
}
