import { BeforeApplicationShutdown, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import { AppConfig } from '../config/app.config.js';
import { SyncService } from './sync.service.js';

export const SYNC_TIMEOUT_NAME = 'sync';

/**
 * Runs a pass at start-up and then `SYNC_INTERVAL_S` after the end of each one (a timeout that
 * re-arms itself, so runs never overlap however long one takes); `0` disables it. On shutdown
 * the timer goes (and {@link SyncService} stops a pass in progress after its current page).
 */
@Injectable()
export class SyncScheduler implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(SyncScheduler.name);
  private stopped = false;

  constructor(
    private readonly sync: SyncService,
    private readonly config: AppConfig,
    private readonly registry: SchedulerRegistry,
  ) {}

  onApplicationBootstrap(): void {
    const { intervalSeconds } = this.config.sync;
    if (intervalSeconds <= 0) {
      this.logger.log('Scheduled sync disabled (SYNC_INTERVAL_S=0)');
      return;
    }
    this.schedule(0);
  }

  /** The service itself stops a pass in progress between pages. */
  beforeApplicationShutdown(): void {
    this.stopped = true;
    this.clearTimer();
  }

  private schedule(delayMs: number): void {
    if (this.stopped) return;
    const timer = setTimeout(() => void this.tick(), delayMs);
    this.registry.addTimeout(SYNC_TIMEOUT_NAME, timer);
  }

  private async tick(): Promise<void> {
    this.clearTimer();
    const intervalMs = this.config.sync.intervalSeconds * 1000;
    // A pass that just ended (e.g. demo mode's first one) counts: at most one pass per interval.
    const last = this.sync.getLastOutcome();
    const sinceLastMs = last === null ? Infinity : Date.now() - Date.parse(last.finishedAt);
    if (sinceLastMs < intervalMs) {
      this.schedule(intervalMs - sinceLastMs);
      return;
    }
    // run() never rejects: its outcome is logged and recorded by the service.
    await this.sync.run();
    this.schedule(intervalMs);
  }

  private clearTimer(): void {
    if (this.registry.doesExist('timeout', SYNC_TIMEOUT_NAME)) {
      this.registry.deleteTimeout(SYNC_TIMEOUT_NAME);
    }
  }
}
