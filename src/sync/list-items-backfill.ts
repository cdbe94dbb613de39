import {
  Injectable,
  Logger,
  type BeforeApplicationShutdown,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import { sql } from 'drizzle-orm';
import { Counter, Gauge, Registry } from 'prom-client';
import { DatabaseService } from '../database/database.service.js';
import { LIST_ITEM_SHAPE } from '../database/schema.js';
import { rowsOf, type Executor } from '../database/sql-rows.js';

/** Items rendered a statement: ~0.3 ms each on PostgreSQL, so a batch holds its row locks well under a second. */
export const BACKFILL_BATCH = 500;
/** Between batches: the database's time goes to requests and sync first. */
const PAUSE_BETWEEN_BATCHES_MS = 20;
/** While another instance renders a batch, this one waits this long before trying again. */
const WAIT_FOR_OTHER_INSTANCE_MS = 1000;
/** Serialises batches across instances (transaction-scoped advisory lock), so none renders twice. */
const BACKFILL_LOCK_KEY = 7_231_017;

/**
 * The process `p` has no item `i` (left joined), or one in an earlier shape. A join, not `NOT
 * EXISTS (… AND shape = …)`: with a million items stored in the earlier shape, the planner's merge
 * anti join read them all to find the first in the current one, past the statement timeout.
 */
const toRender = sql.raw(`(i.numero IS NULL OR i.shape <> ${LIST_ITEM_SHAPE})`);

export interface RenderedBatch {
  count: number;
  /** The highest numero rendered (in the database's order), `null` when none was. */
  last: string | null;
}

/**
 * Renders, in one statement, the list items of up to `limit` processes that have none or one in an
 * earlier shape, from the lowest numero after `after`. A process sync writes meanwhile keeps the
 * item sync rendered (it is newer than this statement's snapshot, and in the current shape).
 */
export async function renderMissingListItems(
  executor: Executor,
  after: string,
  limit: number,
): Promise<RenderedBatch> {
  const [batch] = await rowsOf<RenderedBatch>(
    executor,
    sql`WITH rendered AS (
          INSERT INTO process_list_items (numero, body)
          SELECT p.numero, process_list_item(p, c)
            FROM processes p
            JOIN customers c ON c.id = p.customer_id
            LEFT JOIN process_list_items i ON i.numero = p.numero
           WHERE p.numero > ${after} AND ${toRender}
           ORDER BY p.numero
           LIMIT ${limit}
          ON CONFLICT (numero) DO UPDATE SET body = excluded.body, shape = excluded.shape
             WHERE process_list_items.shape <> excluded.shape
          RETURNING numero)
        SELECT count(*)::int AS count, max(numero) AS last FROM rendered`,
  );
  return batch ?? { count: 0, last: null };
}

/**
 * Renders the list items that are missing (those of processes stored before migration 0015) or in
 * an earlier shape (all of them after a migration that changes the item's shape) in batches after
 * start-up, never holding up readiness; reads render such an item themselves meanwhile.
 * Progress: `list_items_backfill_remaining` and `list_items_backfill_rendered_total`.
 */
@Injectable()
export class ListItemsBackfill implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(ListItemsBackfill.name);
  private readonly remaining: Gauge;
  private readonly rendered: Counter;
  private stopped = false;
  private running: Promise<void> | null = null;

  constructor(
    private readonly database: DatabaseService,
    registry: Registry,
  ) {
    this.remaining = new Gauge({
      name: 'list_items_backfill_remaining',
      help: 'Processes whose list item is still to be rendered in the background (counted at start-up)',
      registers: [registry],
    });
    this.rendered = new Counter({
      name: 'list_items_backfill_rendered_total',
      help: 'List items rendered in the background by this instance',
      registers: [registry],
    });
  }

  onApplicationBootstrap(): void {
    this.running = this.run().catch((error: unknown) => {
      // Reads render what is missing; the next start-up goes on from there.
      this.logger.error({ msg: 'list item backfill stopped', error: String(error) });
    });
  }

  /** Before the database closes: the batch in flight ends, and no other starts. */
  async beforeApplicationShutdown(): Promise<void> {
    this.stopped = true;
    await this.running;
  }

  /** Resolves once every missing item is rendered, or the service is stopping. */
  whenDone(): Promise<void> {
    return this.running ?? Promise.resolve();
  }

  private async run(): Promise<void> {
    let remaining = await this.countToRender();
    if (remaining === 0) return;
    if (remaining !== null) this.remaining.set(remaining);
    this.logger.log(`Rendering ${remaining ?? 'the'} list item(s) in the background`);
    let after = '';
    while (!this.stopped) {
      const batch = await this.database.db.transaction(async (tx) => {
        const [lock] = await rowsOf<{ held: boolean }>(
          tx,
          sql`SELECT pg_try_advisory_xact_lock(${BACKFILL_LOCK_KEY}) AS held`,
        );
        return lock?.held === true ? renderMissingListItems(tx, after, BACKFILL_BATCH) : null;
      });
      if (batch === null) {
        await pause(WAIT_FOR_OTHER_INSTANCE_MS);
        continue;
      }
      if (batch.last === null) break;
      after = batch.last;
      if (remaining !== null) {
        remaining = Math.max(0, remaining - batch.count);
        this.remaining.set(remaining);
      }
      this.rendered.inc(batch.count);
      await pause(PAUSE_BETWEEN_BATCHES_MS);
    }
    if (!this.stopped) {
      // Another instance may have rendered some this one counted.
      this.remaining.set(0);
      this.logger.log('List items rendered');
    }
  }

  /**
   * The items to render, or null when counting them failed: with a million items in an earlier
   * shape the count reads both tables whole and may pass the statement timeout on a busy server,
   * which must not keep the items from being rendered.
   */
  private async countToRender(): Promise<number | null> {
    try {
      const [count] = await rowsOf<{ count: number }>(
        this.database.db,
        sql`SELECT count(*)::int AS count FROM processes p
              LEFT JOIN process_list_items i ON i.numero = p.numero
             WHERE ${toRender}`,
      );
      return count?.count ?? 0;
    } catch (error) {
      this.logger.warn(`Could not count the list items to render (${String(error)}); rendering them anyway`);
      return null;
    }
  }
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
