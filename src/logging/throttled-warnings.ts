import type { Logger } from '@nestjs/common';

/** At most one warning per kind and interval: an outage must not flood the logs with one line a request. */
const DEFAULT_INTERVAL_MS = 30_000;

interface KindState {
  lastWarnedAt: number;
  suppressed: number;
}

export interface ThrottledWarningsOptions {
  /** What fails, opening every line: `Redis unavailable`, `Operations system call failed`. */
  subject: string;
  intervalMs?: number;
  now?: () => number;
}

/**
 * Warns about failures that the caller works around (a fallback, a cache miss, a 503). Each kind
 * (`what`) is logged at once the first time; later failures of that kind within the interval are
 * counted and reported with its next warning, so one kind failing often cannot hide another (a
 * cache whose writes fail and whose reads fail are two lines).
 */
export class ThrottledWarnings {
  private readonly kinds = new Map<string, KindState>();
  private readonly subject: string;
  private readonly intervalMs: number;
  private readonly now: () => number;

  constructor(
    private readonly logger: Pick<Logger, 'warn'>,
    options: ThrottledWarningsOptions,
  ) {
    this.subject = options.subject;
    this.intervalMs = options.intervalMs ?? DEFAULT_INTERVAL_MS;
    this.now = options.now ?? Date.now;
  }

  warn(what: string, error: unknown): void {
    const now = this.now();
    const kind = this.kinds.get(what) ?? { lastWarnedAt: -Infinity, suppressed: 0 };
    this.kinds.set(what, kind);
    if (now - kind.lastWarnedAt < this.intervalMs) {
      kind.suppressed += 1;
      return;
    }
    const reason = error instanceof Error ? error.message : String(error);
    const more = kind.suppressed > 0 ? ` (${kind.suppressed} more failures since the last warning)` : '';
    this.logger.warn(`${this.subject}, ${what}: ${reason}${more}`);
    kind.lastWarnedAt = now;
    kind.suppressed = 0;
  }
}
