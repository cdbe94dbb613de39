import { sql } from 'drizzle-orm';
import { Registry } from 'prom-client';
import { ChangeRecorder } from '../changes/change-recorder.js';
import type { DatabaseService } from '../database/database.service.js';
import { anOperationsProcess } from '../testing/operations-process.factory.js';
import { staleListItems } from '../testing/stale-list-items.js';
import { connectTestDatabase, TEST_DATABASE_TARGETS } from '../testing/test-database.js';
import { BACKFILL_BATCH, ListItemsBackfill } from './list-items-backfill.js';
import { ProcessPageWriter } from './process-page.writer.js';

const PROCESSES = BACKFILL_BATCH + 20;

describe.each(TEST_DATABASE_TARGETS)(`${ListItemsBackfill.name} (%s)`, (target) => {
  let database: DatabaseService;
  let dispose: () => Promise<void>;

  beforeAll(async () => {
    ({ database, dispose } = await connectTestDatabase(target));
    const processes = Array.from({ length: PROCESSES }, (_, index) =>
      anOperationsProcess({ numero: `IMP-2026-${String(index).padStart(6, '0')}` }),
    );
    await database.db.transaction((tx) => new ProcessPageWriter(new ChangeRecorder()).write(tx, processes));
  });
  afterAll(() => dispose());

  async function metric(registry: Registry, name: string): Promise<number | undefined> {
    const found = (await registry.getMetricsAsJSON()).find((each) => each.name === name);
    return (found as { values: Array<{ value: number }> } | undefined)?.values[0]?.value;
  }

  it('renders every missing list item after start-up, in batches, with its progress in the metrics', async () => {
    await database.db.execute(sql`TRUNCATE process_list_items`);
    const registry = new Registry();
    const backfill = new ListItemsBackfill(database, registry);

    backfill.onApplicationBootstrap();
    await backfill.whenDone();

    expect(await staleListItems(database)).toEqual([]);
    expect(await metric(registry, 'list_items_backfill_rendered_total')).toBe(PROCESSES);
    expect(await metric(registry, 'list_items_backfill_remaining')).toBe(0);
  });

  it('has nothing to do when every item is rendered', async () => {
    const registry = new Registry();
    const backfill = new ListItemsBackfill(database, registry);

    backfill.onApplicationBootstrap();
    await backfill.whenDone();

    expect(await metric(registry, 'list_items_backfill_rendered_total')).toBe(0);
    expect(await metric(registry, 'list_items_backfill_remaining')).toBe(0);
  });
});
