import { Injectable, Logger } from '@nestjs/common';
import { Gauge, Registry } from 'prom-client';
import { SyncService } from './sync.service.js';
import type { SyncStatus } from './sync.types.js';

/** One read of the sync state serves every gauge of a scrape. */
const STATUS_MEMO_MS = 1000;

/**
 * `sync_lag_seconds` and `sync_last_success_timestamp_seconds`, read from the stored sync state
 * (shared by every instance) when scraped. NaN when no pass ever succeeded or the state cannot
 * be read.
 */
@Injectable()
export class SyncStateGauges {
  private readonly logger = new Logger(SyncStateGauges.name);
  private memo: { at: number; status: Promise<SyncStatus | null> } | null = null;

  constructor(
    registry: Registry,
    private readonly sync: SyncService,
  ) {
    const lag: Gauge = new Gauge({
      name: 'sync_lag_seconds',
      help: 'Seconds since the last successful sync pass (NaN: none yet, or the state is unreadable)',
      registers: [registry],
      collect: async () => lag.set((await this.status())?.lagSeconds ?? NaN),
    });
    const lastSuccess: Gauge = new Gauge({
      name: 'sync_last_success_timestamp_seconds',
      help: 'Unix time of the last successful sync pass (NaN: none yet, or the state is unreadable)',
      registers: [registry],
      collect: async () => {
        const succeededAt = (await this.status())?.lastSucceededAt ?? null;
        lastSuccess.set(succeededAt === null ? NaN : Date.parse(succeededAt) / 1000);
      },
    });
  }

  private status(): Promise<SyncStatus | null> {
    const now = Date.now();
    if (this.memo === null || now - this.memo.at > STATUS_MEMO_MS) {
      this.memo = {
        at: now,
        status: this.sync.getStatus().catch((error: unknown) => {
          this.logger.warn({ msg: 'metrics could not read the sync state', error: String(error) });
          return null;
        }),
      };
    }
    return this.memo.status;
  }
}
