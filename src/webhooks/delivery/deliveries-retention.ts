import { Injectable, Logger } from '@nestjs/common';
import { Interval } from '@nestjs/schedule';
import { retainedSince } from '../../changes/change-retention.js';
import { Clock } from '../../common/clock.js';
import { AppConfig } from '../../config/app.config.js';
import { DeliveryRepository } from './delivery.repository.js';

/** Rows per DELETE, so that deliverers' writes never wait long behind one. */
const PRUNE_BATCH = 5000;
const PRUNE_EVERY_MS = 10 * 60_000;

/**
 * Deletes delivery attempts older than the feed's retention (`CHANGES_RETENTION_DAYS`): a log
 * entry names a change that can no longer be replayed. Any instance may run it.
 */
@Injectable()
export class DeliveriesRetention {
  private readonly logger = new Logger(DeliveriesRetention.name);

  constructor(
    private readonly repository: DeliveryRepository,
    private readonly config: AppConfig,
    private readonly clock: Clock,
  ) {}

  @Interval(PRUNE_EVERY_MS)
  scheduled(): void {
    this.prune().catch((error: Error) =>
      this.logger.warn({ msg: 'pruning old webhook deliveries failed', error: error.message }),
    );
  }

  /** Deletes what is past retention now; resolves with how many attempts went. */
  async prune(): Promise<number> {
    const before = retainedSince(this.config, this.clock);
    let total = 0;
    for (;;) {
      const deleted = await this.repository.pruneDeliveriesBefore(before, PRUNE_BATCH);
      total += deleted;
      if (deleted < PRUNE_BATCH) return total;
    }
  }
}
