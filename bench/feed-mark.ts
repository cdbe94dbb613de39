import { sql } from 'drizzle-orm';
import type { DatabaseService } from '../src/database/database.service.js';
import { rowsOf } from '../src/database/sql-rows.js';

/** Where the change feed ended before a bench recorded changes into it. */
export interface FeedMark {
  lastPosition: string;
  lastRecordedAt: string | null;
}

/** The feed's head now: what {@link restoreFeed} brings it back to. */
export async function markFeed(database: DatabaseService): Promise<FeedMark> {
  const [head] = await rowsOf<FeedMark>(
    database.db,
    sql`SELECT last_position::text AS "lastPosition", last_recorded_at::text AS "lastRecordedAt"
          FROM change_feed_head`,
  );
  if (head === undefined) throw new Error('the change feed has no head row');
  return head;
}

/**
 * Deletes the changes recorded after `mark` and moves the head back to it, so that a bench leaves
 * the dataset's feed as it found it (the next run's pages, depths and totals stay comparable).
 * Returns how many changes it deleted. Only for bench databases: a deployment's feed only grows.
 */
export async function restoreFeed(database: DatabaseService, mark: FeedMark): Promise<number> {
  const deleted = await database.db.transaction(async (tx) => {
    const [deleted] = await rowsOf<{ count: number }>(
      tx,
      sql`WITH deleted AS (DELETE FROM process_changes WHERE position > ${mark.lastPosition}::bigint RETURNING 1)
          SELECT count(*)::int AS count FROM deleted`,
    );
    await tx.execute(
      sql`UPDATE change_feed_head SET last_position = ${mark.lastPosition}::bigint,
                                      last_recorded_at = ${mark.lastRecordedAt}::timestamptz`,
    );
    return deleted?.count ?? 0;
  });
  await vacuum(database, ['process_changes', 'change_feed_head']);
  return deleted;
}

/**
 * Vacuums and analyzes tables a bench wrote to: where autovacuum is off (as on our machines), the
 * dead rows of one run would otherwise slow the next one's scans.
 */
export async function vacuum(database: DatabaseService, tables: string[]): Promise<void> {
  await database.db.execute(sql.raw(`VACUUM (ANALYZE) ${tables.join(', ')}`));
}
