import type { Logger } from '@nestjs/common';

/** At most one warning per interval: an outage must not flood the logs with one line a request. */
const DEFAULT_INTERVAL_MS = 30_000;

/**
 * Warns about failed Redis commands that the caller works around (fallback, cache miss). The
 * first failure is logged at once; later ones within the interval are counted and reported with
 * the next warning.
 */
export class RedisFailureLog {
  private lastWarnedAt = -Infinity;
  private suppressed = 0;

  constructor(
    private readonly logger: Pick<Logger, 'warn'>,
    private readonly intervalMs = DEFAULT_INTERVAL_MS,
    private readonly now: () => number = Date.now,
  ) {}

  warn(what: string, error: unknown): void {
    const now = this.now();
    if (now - this.lastWarnedAt < this.intervalMs) {
      this.suppressed += 1;
      return;
    }
    const reason = error instanceof Error ? error.message : String(error);
    const more = this.suppressed > 0 ? ` (${this.suppressed} more failures since the last warning)` : '';
    this.logger.warn(`Redis unavailable, ${what}: ${reason}${more}`);
    this.lastWarnedAt = now;
    this.suppressed = 0;
  }
}
