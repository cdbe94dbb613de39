import { Injectable } from '@nestjs/common';
import { sql, type Placeholder, type SQL } from 'drizzle-orm';
import type { Visibility } from '../domain/authenticated-user.js';
import { JsonText } from '../common/http/json-text.js';
import { DatabaseService } from '../database/database.service.js';
import { DummyValue, GenerateSql } from '../database/generate-sql.decorator.js';
import {
  prepared,
  preparedOnce,
  type PreparedRead,
  type StatementValues,
} from '../database/prepared-statements.js';
import { sqlEpochMilliseconds, sqlTimestampValue } from '../database/sql-instant.js';
import { rowsOf } from '../database/sql-rows.js';
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

interface StoredChange {
  position: string;
  cursor: string;
  customerId: string;
  recordedAtMs: string;
  json: string;
}

interface StoredPage {
  lastPosition: string;
  prunedThrough: string;
  pageLastPosition: string | null;
  items: string | null;
  hasMore: boolean;
}

/** Staff read the whole feed; anyone else the changes of their customers. */
type VisibilityShape = 'everyone' | 'customers';

/** What a read of the feed needs of a change: its text was rendered when it was recorded. */
const FEED_COLUMNS = sql.raw('position, customer_id, recorded_at, body');

const param = {
  position: sql.placeholder('position'),
  limit: sql.placeholder('limit'),
  customerIds: sql.placeholder('customerIds'),
};

/**
 * Reads and prunes the change feed. Visibility is in the SQL: a customer's changes come from its
 * (customer, position) index, one ordered scan per visible customer merged by position, so a page
 * costs the same at any depth of the feed. Each change was stored as the API's JSON text, cursor
 * included, when it was recorded (`body`): a page is their join, and serving it costs PostgreSQL
 * no rendering and the service no parsing and no serialising. A page is read by the SQL function
 * `change_feed_page` (migration 0012), whose plans PostgreSQL keeps for the session instead of
 * planning the page again on every request.
 */
@Injectable()
export class ChangesRepository {
  private readonly afterStatements = new Map<VisibilityShape, PreparedRead<StoredChange>>();
  private pageStatement: PreparedRead<StoredPage> | undefined;

  constructor(private readonly database: DatabaseService) {}

  @GenerateSql({ name: "the feed's extent", params: [] })
  async extent(): Promise<FeedExtent> {
    const [row] = await rowsOf<{ last_position: string; pruned_through: string }>(
      this.database.db,
      sql`SELECT last_position::text, pruned_through::text FROM change_feed_head`,
    );
    return { lastPosition: Number(row?.last_position ?? 0), prunedThrough: Number(row?.pruned_through ?? 0) };
  }

  /** Up to `limit` visible changes after `position`, in order. */
  @GenerateSql(
    { name: 'as one customer', params: [0, 100, { customerIds: [DummyValue.CUSTOMER_ID] }] },
    {
      name: 'as a user of several customers',
      params: [0, 100, { customerIds: [DummyValue.CUSTOMER_ID, DummyValue.OTHER_CUSTOMER_ID] }],
    },
    { name: 'as staff', params: [0, 100, { customerIds: null }] },
  )
  async after(position: number, limit: number, visibility: Visibility): Promise<ChangeRow[]> {
    const shape = visibilityShapeOf(visibility);
    const statement = preparedOnce(this.afterStatements, shape, () => this.prepareAfter(shape));
    const rows = await statement.execute({ position, limit, ...visibilityValues(visibility) });
    return rows.map((row) => ({
      position: Number(row.position),
      cursor: row.cursor,
      customerId: row.customerId,
      recordedAtMs: Number(row.recordedAtMs),
      json: JsonText.of(row.json),
    }));
  }

  /**
   * Up to `limit` visible changes after `position` (null: from the oldest retained one), joined
   * into one JSON array by PostgreSQL, and the feed's extent as of the same snapshot.
   */
  @GenerateSql(
    {
      name: 'as one customer, after a position',
      params: [0, 100, { customerIds: [DummyValue.CUSTOMER_ID] }],
    },
    { name: 'as staff, from the oldest', params: [null, 100, { customerIds: null }] },
  )
  async page(position: number | null, limit: number, visibility: Visibility): Promise<FeedPage> {
    this.pageStatement ??= this.preparePage();
    const [row] = await this.pageStatement.execute({ position, limit, ...visibilityValues(visibility) });
    if (row === undefined) throw new Error('the change feed has no head row: were the migrations applied?');
    return {
      extent: { lastPosition: Number(row.lastPosition), prunedThrough: Number(row.prunedThrough) },
      items: JsonText.arrayOfJoined(row.items ?? ''),
      lastPosition: row.pageLastPosition === null ? null : Number(row.pageLastPosition),
      hasMore: row.hasMore,
    };
  }

  /** The position just before the first change recorded at or after `instant` (the head if none). */
  @GenerateSql({ name: 'an instant', params: [DummyValue.INSTANT] })
  async positionBefore(instant: Date): Promise<number> {
    const [row] = await rowsOf<{ position: string }>(
      this.database.db,
      sql`SELECT coalesce(
                   (SELECT position - 1 FROM process_changes WHERE recorded_at >= ${sqlTimestampValue(instant)}
                     ORDER BY recorded_at, position LIMIT 1),
                   (SELECT last_position FROM change_feed_head))::text AS position`,
    );
    return Number(row?.position ?? 0);
  }

  /**
   * Deletes up to `batch` changes recorded before `instant`, oldest first, and moves the pruned
   * mark; the caller repeats while a full batch went. Returns how many went.
   */
  @GenerateSql({ name: 'a batch', params: [new Date('2000-01-01T00:00:00Z'), 5000] })
  async pruneBefore(instant: Date, batch: number): Promise<number> {
    const [row] = await rowsOf<{ deleted: number }>(
      this.database.db,
      sql`WITH doomed AS (
            DELETE FROM process_changes WHERE position IN (
              SELECT position FROM process_changes WHERE recorded_at < ${sqlTimestampValue(instant)}
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

  private prepareAfter(shape: VisibilityShape): PreparedRead<StoredChange> {
    const query = this.database.db
      .select({
        position: sql<string>`c.position::text`,
        cursor: sql<string>`change_cursor(c.position)`,
        customerId: sql<string>`c.customer_id`,
        recordedAtMs: sqlEpochMilliseconds(sql`c.recorded_at`),
        json: sql<string>`c.body`,
      })
      .from(sql`(${visibleAfter(param.position, param.limit, shape)}) AS c`)
      .orderBy(sql`c.position`);
    return prepared('changes_after', query);
  }

  /** `change_feed_page` (migration 0012) keeps its plans for the session; this statement only calls it. */
  private preparePage(): PreparedRead<StoredPage> {
    const query = this.database.db
      .select({
        lastPosition: sql<string>`f.last_position::text`,
        prunedThrough: sql<string>`f.pruned_through::text`,
        pageLastPosition: sql<string | null>`f.page_last_position::text`,
        items: sql<string | null>`f.items`,
        hasMore: sql<boolean>`f.has_more`,
      })
      .from(
        sql`change_feed_page(${param.position}::bigint, ${param.limit}::int, ${param.customerIds}::json) AS f`,
      );
    return prepared('changes_page', query);
  }
}

/**
 * The first `limit` changes after `after` that the shape lets through (in no set order). Pages are
 * read by `change_feed_page` with the same two scans, in SQL: a change to one belongs in both.
 */
function visibleAfter(after: SQL | Placeholder, limit: SQL | Placeholder, shape: VisibilityShape): SQL {
  if (shape === 'everyone') {
    return sql`SELECT ${FEED_COLUMNS} FROM process_changes WHERE position > ${after} ORDER BY position LIMIT ${limit}`;
  }
  return sql`SELECT pc.* FROM json_array_elements_text(${param.customerIds}::json) AS v(customer_id)
             CROSS JOIN LATERAL (
               SELECT ${FEED_COLUMNS} FROM process_changes
                WHERE customer_id = v.customer_id AND position > ${after}
                ORDER BY position LIMIT ${limit}) AS pc
             ORDER BY pc.position LIMIT ${limit}`;
}

function visibilityShapeOf(visibility: Visibility): VisibilityShape {
  return visibility.customerIds === null ? 'everyone' : 'customers';
}

/** The customers as a JSON array; null for staff, whose statements read every customer's changes. */
function visibilityValues(visibility: Visibility): StatementValues {
  return { customerIds: visibility.customerIds === null ? null : JSON.stringify(visibility.customerIds) };
}
