import { Injectable } from '@nestjs/common';
import { sql, type SQL } from 'drizzle-orm';
import type { Visibility } from '../auth/authenticated-user.js';
import { JsonText } from '../common/http/json-text.js';
import { DatabaseService } from '../database/database.service.js';
import { sqlUtcInstant } from '../database/sql-instant.js';
import { rowsOf } from '../database/sql-rows.js';
import { sqlCursorOf } from './change-cursor.js';
import type { ChangeDto } from './dto/change.response.dto.js';

/** A change as the fan-out hands it on: where it is, whose it is, and its text for the API. */
export interface ChangeRow {
  position: number;
  cursor: string;
  customerId: string;
  /** When it was recorded, to the millisecond, for measuring delivery lag. */
  recordedAtMs: number;
  json: JsonText<ChangeDto>;
}

/** The feed's extent: the last position given out, and the last one retention deleted. */
export interface FeedExtent {
  lastPosition: number;
  prunedThrough: number;
}

/** A page of the feed, read in one snapshot with the feed's extent. */
export interface FeedPage {
  extent: FeedExtent;
  /** The page's changes as one JSON array, in order. */
  items: JsonText<ChangeDto[]>;
  /** The position of its last change, or null when it is empty. */
  lastPosition: number | null;
  hasMore: boolean;
}

interface StoredRow {
  position: string;
  cursor: string;
  customer_id: string;
  recorded_at_ms: string;
  json: string;
}

interface StoredPage {
  last_position: string;
  pruned_through: string;
  page_last_position: string | null;
  items: string | null;
  has_more: boolean;
}

/**
 * Reads and prunes the change feed. Visibility is in the SQL: a customer's changes come from its
 * (customer, position) index, one ordered scan per visible customer merged by position, so a page
 * costs the same at any depth of the feed. Changes leave PostgreSQL as the API's JSON text,
 * cursors included: serving a page costs the service no parsing and no serialising.
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
    const rows = await rowsOf<StoredRow>(
      this.database.db,
      sql`SELECT r.position::text, r.cursor, r.customer_id, r.recorded_at_ms::text, r.json
            FROM (${rendered(sql`${position}`, limit, visibility)}) AS r
           ORDER BY r.position`,
    );
    return rows.map((row) => ({
      position: Number(row.position),
      cursor: row.cursor,
      customerId: row.customer_id,
      recordedAtMs: Number(row.recorded_at_ms),
      json: JsonText.of(row.json),
    }));
  }

  /**
   * Up to `limit` visible changes after `position` (null: from the oldest retained one), joined
   * into one JSON array by PostgreSQL, and the feed's extent as of the same snapshot.
   */
  async page(position: number | null, limit: number, visibility: Visibility): Promise<FeedPage> {
    const from = sql`coalesce(${position}::bigint, h.pruned_through)`;
    const [row] = await rowsOf<StoredPage>(
      this.database.db,
      sql`SELECT h.last_position::text, h.pruned_through::text, p.page_last_position::text, p.items, p.has_more
            FROM change_feed_head h
           CROSS JOIN LATERAL (
             SELECT max(r.position) FILTER (WHERE r.n <= ${limit}) AS page_last_position,
                    string_agg(r.json, ',' ORDER BY r.position) FILTER (WHERE r.n <= ${limit}) AS items,
                    count(*) > ${limit} AS has_more
               FROM (SELECT r.position, r.json, row_number() OVER (ORDER BY r.position) AS n
                       FROM (${rendered(from, limit + 1, visibility)}) AS r) AS r
           ) AS p`,
    );
    if (row === undefined) throw new Error('the change feed has no head row: were the migrations applied?');
    return {
      extent: { lastPosition: Number(row.last_position), prunedThrough: Number(row.pruned_through) },
      items: JsonText.of(`[${row.items ?? ''}]`),
      lastPosition: row.page_last_position === null ? null : Number(row.page_last_position),
      hasMore: row.has_more,
    };
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

/**
 * Up to `limit` visible changes after `after`, each as the API's JSON text: the common members in
 * order, then the kind's own from `details` (JSON as the recorder wrote it, hence compact).
 */
function rendered(after: SQL, limit: number, visibility: Visibility): SQL {
  return sql`SELECT c.position, k.cursor, c.customer_id,
                    (extract(epoch FROM c.recorded_at) * 1000)::bigint AS recorded_at_ms,
                    left(row_to_json(common)::text, -1)
                      || coalesce(',' || substr(nullif(c.details::text, '{}'), 2), '}') AS json
               FROM (${visibleAfter(after, limit, visibility)}) AS c
              CROSS JOIN LATERAL (SELECT ${sqlCursorOf(sql`c.position`)} AS cursor) AS k
              CROSS JOIN LATERAL (
                SELECT k.cursor, ${sqlUtcInstant(sql`c.recorded_at`)} AS "recordedAt", c.kind, c.numero,
                       c.status, ${sqlUtcInstant(sql`c.updated_at`)} AS "updatedAt") AS common`;
}

/** The first `limit` changes after `after` that `visibility` lets through (in no set order). */
function visibleAfter(after: SQL, limit: number, visibility: Visibility): SQL {
  if (visibility.customerIds === null) {
    return sql`SELECT * FROM process_changes WHERE position > ${after} ORDER BY position LIMIT ${limit}`;
  }
  return sql`SELECT pc.* FROM json_array_elements_text(${JSON.stringify(visibility.customerIds)}::json) AS v(customer_id)
             CROSS JOIN LATERAL (
               SELECT * FROM process_changes own
                WHERE own.customer_id = v.customer_id AND own.position > ${after}
                ORDER BY own.position LIMIT ${limit}) AS pc
             ORDER BY pc.position LIMIT ${limit}`;
}
