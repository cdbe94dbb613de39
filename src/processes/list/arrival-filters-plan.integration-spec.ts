import { sql } from 'drizzle-orm';
import { ChangeRecorder } from '../../changes/change-recorder.js';
import type { DatabaseService } from '../../database/database.service.js';
import { rowsOf } from '../../database/sql-rows.js';
import type { Visibility } from '../../domain/authenticated-user.js';
import { ProcessPageWriter } from '../../sync/process-page.writer.js';
import { aListCriteria } from '../../testing/list-criteria.factory.js';
import { anOperationsProcess } from '../../testing/operations-process.factory.js';
import { connectTestDatabase, TEST_DATABASE_TARGETS } from '../../testing/test-database.js';
import type { ProcessListCriteria } from '../process-list.criteria.js';
import { ProcessesRepository } from '../processes.repository.js';

interface Sent {
  text: string;
  params: unknown[];
}

/** The statement with its values written in, for EXPLAIN (these lists bind text, dates and integers only). */
function inlined({ text, params }: Sent): string {
  return text.replace(/\$(\d+)/g, (_, position: string) => {
    const value = params[Number(position) - 1];
    return typeof value === 'number' ? String(value) : `'${String(value).replace(/'/g, "''")}'`;
  });
}

/**
 * An importer's questions (what arrives, whose free time ends, what slipped) are totalled from
 * their filter's index or, for the ETA, from its kept totals' index, and neither the total nor the
 * page scans a table: the plans the planner can choose once sequential scans are ruled out (the
 * page may walk the sort order's index instead).
 */
describe.each(TEST_DATABASE_TARGETS)('the arrival filters’ plans (%s)', (target) => {
  const sent: Sent[] = [];
  let database: DatabaseService;
  let dispose: () => Promise<void>;
  let repository: ProcessesRepository;

  beforeAll(async () => {
    ({ database, dispose } = await connectTestDatabase(target, {
      queryLogger: { logQuery: (text, params) => void sent.push({ text, params }) },
    }));
    const writer = new ProcessPageWriter(new ChangeRecorder());
    const process = anOperationsProcess({ numero: 'IMP-1', eta: '2026-03-01', freeTimeEndsAt: '2026-03-03' });
    await database.db.transaction((tx) => writer.write(tx, [process]));
    // The vessel slips five days: delayed, arriving within the week asked for.
    await database.db.transaction((tx) =>
      writer.write(tx, [{ ...process, eta: '2026-03-06', updatedAt: '2026-03-15T00:00:00Z' }]),
    );
    repository = new ProcessesRepository(database);
  });

  afterAll(() => dispose());

  it.each<[string, Partial<ProcessListCriteria>, Visibility, RegExp]>([
    [
      'arriving in a week, by ETA',
      { etaFrom: '2026-03-02', etaTo: '2026-03-08', sort: 'eta' },
      { customerIds: ['acme'] },
      /process_eta_daily_counts_eta_customer_id_status_pk/,
    ],
    [
      'free time ending in 3 days, by its end',
      { freeTimeEndsFrom: '2026-03-02', freeTimeEndsTo: '2026-03-04', sort: 'freeTimeEndsAt' },
      { customerIds: ['acme'] },
      /processes_(customer_)?free_time_idx/,
    ],
    [
      'arriving in a week, as staff',
      { etaFrom: '2026-03-02', etaTo: '2026-03-08', sort: 'eta' },
      { customerIds: null },
      /process_eta_daily_counts_eta_customer_id_status_pk/,
    ],
    [
      'delayed by 3 days or more',
      { delayedByDays: 3 },
      { customerIds: ['acme'] },
      /processes_(customer_)?eta_delay_idx/,
    ],
    [
      'delayed by 3 days or more, as staff',
      { delayedByDays: 3 },
      { customerIds: null },
      /processes_eta_delay_idx/,
    ],
  ])('%s: counted from an index, no table scan', async (_, criteria, visibility, index) => {
    sent.length = 0;
    await repository.list(aListCriteria(criteria), visibility);
    expect(sent).toHaveLength(2);

    const [count, page] = sent.splice(0) as [Sent, Sent];
    const countPlan = await planOf(count);
    const pagePlan = await planOf(page);
    expect(countPlan).toMatch(index);
    expect(countPlan).not.toContain('Seq Scan');
    expect(pagePlan).not.toContain('Seq Scan');
  });

  function planOf(statement: Sent): Promise<string> {
    return database.db.transaction(async (tx) => {
      await tx.execute(sql`SET LOCAL enable_seqscan = off`);
      const rows = await rowsOf<{ 'QUERY PLAN': string }>(tx, sql.raw(`EXPLAIN ${inlined(statement)}`));
      return rows.map((row) => row['QUERY PLAN']).join('\n');
    });
  }
});
