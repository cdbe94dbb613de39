/** How one run ended. */
export type SyncRunStatus = 'succeeded' | 'failed' | 'skipped' | 'interrupted';

/** The result of one {@link SyncService.run}: what the structured log line and metrics report. */
export interface SyncOutcome {
  stream: string;
  status: SyncRunStatus;
  /** `skipped`: why nothing was done; `failed`: the error; otherwise null. */
  detail: string | null;
  startedAt: string;
  finishedAt: string;
  durationMs: number;
  pages: number;
  /** Items the operations system returned. */
  fetched: number;
  /** Processes inserted or updated. */
  processed: number;
  /** Processes already stored as new or newer (re-pulled in the overlap window, or stale). */
  skipped: number;
  /** Items refused: invalid (unknown status, malformed field) or rejected by a database constraint. */
  rejected: number;
  /** Seconds since the last successful pass when this run ended; null before any success. */
  lagSeconds: number | null;
}

/** The durable state of a stream, for health and metrics. */
export interface SyncStatus {
  stream: string;
  /** Every upstream change up to this instant is in the database; null before the first pass. */
  watermark: string | null;
  lastStartedAt: string | null;
  lastSucceededAt: string | null;
  /** The last run's error; null once a run succeeds. */
  lastError: string | null;
  lastProcessedCount: number | null;
  /** A pass stopped part-way and will resume from its stored cursor. */
  passInProgress: boolean;
  /** Seconds since `lastSucceededAt`; null when no pass ever succeeded. */
  lagSeconds: number | null;
  /** A run is going on in this process right now. */
  running: boolean;
}

export interface SyncOptions {
  /** The `sync_state` row this service owns. */
  stream: string;
  /** Items asked for per upstream page. */
  pageSize: number;
  /**
   * Each pass asks for changes since `watermark - overlapSeconds`: a change the operations system
   * commits late with an earlier `updatedAt` is still picked up. Re-pulled items cost a read only.
   */
  overlapSeconds: number;
}

export const DEFAULT_SYNC_OPTIONS: SyncOptions = {
  stream: 'processes',
  pageSize: 200,
  overlapSeconds: 60,
};

/** Injection token for partial {@link SyncOptions}. */
export const SYNC_OPTIONS = Symbol('SYNC_OPTIONS');
