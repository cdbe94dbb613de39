import { Injectable } from '@nestjs/common';
import { sql } from 'drizzle-orm';
import { DatabaseService } from '../database/database.service.js';
import { sqlUtcInstant } from '../database/sql-instant.js';
import { rowsOf } from '../database/sql-rows.js';
import type { Visibility } from '../auth/authenticated-user.js';
import type { ChangeKind } from '../domain/change-kinds.js';

/** A change as the feed stores it. */
export interface ChangeRow {
  position: number;
  recordedAt: string;
  /** `recordedAt` to the millisecond, for measuring delivery lag. */
  recordedAtMs: number;
  kind: ChangeKind;
  numero: string;
  status: string;
  updatedAt: string;
  details: Record<string, unknown> | null;
  customerId: string;
}

/** The feed's extent: the last position given out, and the last one retention deleted. */
export interface FeedExtent {
  lastPosition: number;
  prunedThrough: number;
}

interface StoredRow {
  position: string;
  recorded_at: string;
  recorded_at_ms: string;
  kind: ChangeKind;
  numero: string;
  status: string;
  updated_at: string;
  details: Record<string, unknown> | null;
  customer_id: string;
}

const COLUMNS = sql`position::text, ${sqlUtcInstant(sql`recorded_at`)} AS recorded_at,
  (extract(epoch FROM recorded_at) * 1000)::bigint::text AS recorded_at_ms,
  kind, numero, status, ${sqlUtcInstant(sql`updated_at`)} AS updated_at, details, customer_id`;

/**
 * Reads and prunes the change feed. Visibility is in the SQL: a customer's changes come from its
 * (customer, position) index, one ordered scan per visible customer merged by position, so a page
 * costs the same at any depth of the feed.
 */
@Injectable()
export class ChangesRepository {
  constructor(private readonly database: DatabaseService) {}

  async extent(): Promise<FeedExtent> {
    const [row] = await rowsOf<{ last_position: string; pruned_through: string }>(
      this.database.db,
      sql`SELECT last_position::text, pruned_through::text FROM change_feed_head`,
    );
    return { lastPosition: Number(row?.last_position ?? 0), prunedThrough: Number(row?.pruned_through ?? 0) };
  }

  /** Up to `limit` visible changes after `position`, in order. */
  async after(position: number, limit: number, visibility: Visibility): Promise<ChangeRow[]> {
    const rows =
      visibility.customerIds === null
        ? await rowsOf<StoredRow>(
            this.database.db,
            // Qualified: a bare `position` here would name COLUMNS' text output and order 10 before 9.
            sql`SELECT ${COLUMNS} FROM process_changes pc
                 WHERE pc.position > ${position} ORDER BY pc.position LIMIT ${limit}`,
          )
        : await rowsOf<StoredRow>(
            this.database.db,
            sql`SELECT c.* FROM json_array_elements_text(${JSON.stringify(visibility.customerIds)}::json) AS v(customer_id)
                CROSS JOIN LATERAL (
                  SELECT ${COLUMNS} FROM process_changes pc
                   WHERE pc.customer_id = v.customer_id AND pc.position > ${position}
                   ORDER BY pc.position LIMIT ${limit}) AS c
                ORDER BY c.position::bigint LIMIT ${limit}`,
          );
    return rows.map(toChangeRow);
  }

  /** The position just before the first change recorded at or after `instant` (the head if none). */
  async positionBefore(instant: Date): Promise<number> {
    const [row] = await rowsOf<{ position: string }>(
      this.database.db,
      sql`SELECT coalesce(
                   (SELECT position - 1 FROM process_changes WHERE recorded_at >= ${instant.toISOString()}
                     ORDER BY recorded_at, position LIMIT 1),
                   (SELECT last_position FROM change_feed_head))::text AS position`,
    );
    return Number(row?.position ?? 0);
  }

  /**
   * Deletes up to `batch` changes recorded before `instant`, oldest first, and moves the pruned
   * mark; the caller repeats while a full batch went. Returns how many went.
   */
  async pruneBefore(instant: Date, batch: number): Promise<number> {
    const [row] = await rowsOf<{ deleted: number }>(
      this.database.db,
      sql`WITH doomed AS (
            DELETE FROM process_changes WHERE position IN (
              SELECT position FROM process_changes WHERE recorded_at < ${instant.toISOString()}
               ORDER BY position LIMIT ${batch})
            RETURNING position
          ), marked AS (
            UPDATE change_feed_head SET pruned_through = greatest(pruned_through, (SELECT max(position) FROM doomed))
             WHERE EXISTS (SELECT 1 FROM doomed)
          )
          SELECT count(*)::int AS deleted FROM doomed`,
    );
    return row?.deleted ?? 0;
  }
}

function toChangeRow(row: StoredRow): ChangeRow {
  return {
    position: Number(row.position),
    recordedAt: row.recorded_at,
    recordedAtMs: Number(row.recorded_at_ms),
    kind: row.kind,
    numero: row.numero,
    status: row.status,
    updatedAt: row.updated_at,
    details: row.details,
    customerId: row.customer_id,
  };
}
