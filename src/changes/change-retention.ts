import { Injectable, Logger } from '@nestjs/common';
import { Interval } from '@nestjs/schedule';
import { Clock } from '../common/clock.js';
import { DAY_MS } from '../common/instant.js';
import { AppConfig } from '../config/app.config.js';
import { ChangesRepository } from './changes.repository.js';

/** Rows per DELETE: short statements, so sync's writes never wait long behind one. */
const PRUNE_BATCH = 5000;
const PRUNE_EVERY_MS = 10 * 60_000;

/** The oldest instant whose changes are kept. */
export function retainedSince(config: AppConfig, clock: Clock): Date {
  return new Date(clock.now().getTime() - config.changes.retentionDays * DAY_MS);
}

/**
 * Deletes changes older than `CHANGES_RETENTION_DAYS`, oldest first, in bounded batches. Every
 * instance may run it; batches of two instances only ever delete the same old rows.
 */
@Injectable()
export class ChangeRetention {
  private readonly logger = new Logger(ChangeRetention.name);
  private running: Promise<number> | null = null;

  constructor(
    private readonly repository: ChangesRepository,
    private readonly config: AppConfig,
    private readonly clock: Clock,
  ) {}

  @Interval(PRUNE_EVERY_MS)
  scheduled(): void {
    this.prune().catch((error: Error) =>
      this.logger.warn({ msg: 'pruning old changes failed', error: error.message }),
    );
  }

  /** Deletes what is past retention now; resolves with how many changes went. */
  prune(): Promise<number> {
    this.running ??= this.pruneAll().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  private async pruneAll(): Promise<number> {
    const before = retainedSince(this.config, this.clock);
    let total = 0;
    for (;;) {
      const deleted = await this.repository.pruneBefore(before, PRUNE_BATCH);
      total += deleted;
      if (deleted < PRUNE_BATCH) break;
    }
    if (total > 0) this.logger.log({ msg: 'pruned old changes', deleted: total });
    return total;
  }
}
