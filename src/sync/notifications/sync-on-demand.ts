import { BeforeApplicationShutdown, Injectable, Logger } from '@nestjs/common';
import { SyncService } from '../sync.service.js';

/** How long requests are gathered into one run: a burst of notifications costs one pass. */
export const FOLD_MS = 100;
/** When another instance holds the sync, how long to wait before asking again, and how often. */
const BUSY_RETRY_MS = 500;
const BUSY_RETRIES = 20;

/**
 * Sync runs asked for by the operations system: every request is answered by a pass that starts
 * after it (within {@link FOLD_MS}), requests arriving meanwhile fold into one more pass, and a pass
 * skipped because another instance is syncing is asked for again until one runs, so a change never
 * waits for the timed sync.
 */
@Injectable()
export class SyncOnDemand implements BeforeApplicationShutdown {
  private readonly logger = new Logger(SyncOnDemand.name);
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private requestedDuringRun = false;
  private stopped = false;

  constructor(private readonly sync: SyncService) {}

  request(): void {
    if (this.stopped) return;
    if (this.running !== null) {
      this.requestedDuringRun = true;
      return;
    }
    this.timer ??= setTimeout(() => this.start(), FOLD_MS);
  }

  beforeApplicationShutdown(): void {
    this.stopped = true;
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
  }

  private start(): void {
    this.timer = null;
    this.running = this.runUntilDone().finally(() => {
      this.running = null;
      if (this.requestedDuringRun) {
        this.requestedDuringRun = false;
        this.request();
      }
    });
  }

  private async runUntilDone(): Promise<void> {
    for (let attempt = 0; attempt <= BUSY_RETRIES && !this.stopped; attempt++) {
      // run() never rejects; a run that was already going on in this process is joined, and may
      // have read the operations system before the change: one more pass follows it.
      const joined = this.sync.running;
      const outcome = await this.sync.run();
      if (joined) this.requestedDuringRun = true;
      if (outcome.status !== 'skipped') return;
      await new Promise((resolve) => setTimeout(resolve, BUSY_RETRY_MS));
    }
    this.logger.warn('another instance kept the sync busy: the timed sync will pick the change up');
  }
}
