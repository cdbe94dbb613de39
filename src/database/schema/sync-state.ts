import { integer, pgTable, text } from 'drizzle-orm/pg-core';
import { instant } from './columns.js';

/** Progress of each sync stream: the watermark incremental sync resumes from, and its outcome. */
export const syncState = pgTable('sync_state', {
  stream: text('stream').primaryKey(),
  watermark: instant('watermark'),
  lastStartedAt: instant('last_started_at'),
  lastSucceededAt: instant('last_succeeded_at'),
  lastError: text('last_error'),
  lastProcessedCount: integer('last_processed_count'),
  /** A pass in progress (null when none): where the next run resumes, so a failure mid-pass loses no work. */
  passCursor: text('pass_cursor'),
  passUpdatedSince: instant('pass_updated_since'),
  /** The greatest `updatedAt` the pass in progress has seen; becomes the watermark when it completes. */
  passHighWater: instant('pass_high_water'),
});
