import { sql } from 'drizzle-orm';
import { datasetProcesses, datasetSpec, densify, simulatorOf, type DatasetSpec } from '../bench/dataset.js';
import { countDataset, loadDataset, readDatasetSpec } from '../bench/loader.js';
import {
  formatPairs,
  formatTable,
  median,
  requestsOf,
  runOrder,
  SCENARIOS,
  summarisePairs,
  TABLE_COLUMNS,
  targetsOf,
  warmupSettled,
  type ScenarioRow,
} from '../bench/report.js';
import type { DatabaseService } from '../src/database/database.service.js';
import { rowsOf } from '../src/database/sql-rows.js';
import { connectTestDatabase, APP_TEST_DATABASE_TARGET } from '../src/testing/test-database.js';
import { staleListItems } from '../src/testing/stale-list-items.js';

/**
 * The performance bench's own tools (bench/), on tiny data: the loader writes exactly what the
 * simulator says, and the harness's table shows what it is given. Nothing here measures time.
 */

function expectedCounts(spec: DatasetSpec) {
  let processes = 0;
  let events = 0;
  let containers = 0;
  for (const process of datasetProcesses(spec)) {
    processes++;
    events += process.events.length;
    containers += process.containers.length;
  }
  return { processes, events, containers, customers: simulatorOf(spec).customers().length };
}

const indexesOf = async (database: DatabaseService) =>
  (
    await rowsOf<{ definition: string }>(
      database.db,
      sql`SELECT indexdef AS definition FROM pg_indexes
            WHERE schemaname = 'public' AND tablename <> 'bench_dataset' ORDER BY indexname`,
    )
  ).map((row) => row.definition);

describe.each([APP_TEST_DATABASE_TARGET])('bench loader on %s', (target) => {
  let database: DatabaseService;
  let options: { url: string | null; pgliteDir: string };
  let dispose: () => Promise<void>;

  beforeAll(async () => {
    const connected = await connectTestDatabase(target);
    database = connected.database;
    options = connected.options;
    dispose = connected.dispose;
  });
  afterAll(async () => dispose());

  it("loads exactly the simulator's processes, events, containers and customers", async () => {
    const spec = datasetSpec(50, { extraNotes: 0 });
    const migrated = await indexesOf(database);

    const report = await loadDataset(options, spec, { database, createUsers: false });

    const simulator = simulatorOf(spec);
    let events = 0;
    let containers = 0;
    let processes = 0;
    for (const process of simulator.processesAt(new Date(spec.now))) {
      processes++;
      events += process.events.length;
      containers += process.containers.length;
    }
    const expected = { processes, events, containers, customers: simulator.customers().length };
    expect(processes).toBe(50);
    expect(report.counts).toEqual(expected);
    expect(await countDataset(database)).toEqual(expected);
    // Every index dropped for the load is back, and nothing else.
    expect(await indexesOf(database)).toEqual(migrated);
    expect(await readDatasetSpec(database)).toEqual(spec);
    // The kept totals the list counts from are kept through the COPY (or the INSERTs) too.
    const totals = await rowsOf<{ differing: number }>(
      database.db,
      sql`SELECT count(*)::int AS differing FROM (
            (SELECT customer_id, status, type, mode, coalesce(customs_channel, 'NONE'), count(*)::int AS total
               FROM processes GROUP BY 1, 2, 3, 4, 5
             EXCEPT SELECT customer_id, status, type, mode, customs_channel, total FROM process_counts WHERE total > 0)
            UNION ALL
            (SELECT customer_id, status, type, mode, customs_channel, total FROM process_counts WHERE total > 0
             EXCEPT SELECT customer_id, status, type, mode, coalesce(customs_channel, 'NONE'), count(*)::int
               FROM processes GROUP BY 1, 2, 3, 4, 5)) AS d`,
    );
    expect(totals).toEqual([{ differing: 0 }]);
    const dailyTotals = await rowsOf<{ differing: number }>(
      database.db,
      sql`SELECT count(*)::int AS differing FROM (
            (SELECT customer_id, status, (updated_at AT TIME ZONE 'UTC')::date AS day, count(*)::int AS total
               FROM processes GROUP BY 1, 2, 3
             EXCEPT SELECT customer_id, status, day, total FROM process_daily_counts WHERE total > 0)
            UNION ALL
            (SELECT customer_id, status, day, total FROM process_daily_counts WHERE total > 0
             EXCEPT SELECT customer_id, status, (updated_at AT TIME ZONE 'UTC')::date, count(*)::int
               FROM processes GROUP BY 1, 2, 3)) AS d`,
    );
    expect(dailyTotals).toEqual([{ differing: 0 }]);
    const etaTotals = await rowsOf<{ differing: number }>(
      database.db,
      sql`SELECT count(*)::int AS differing FROM (
            (SELECT customer_id, status, eta, count(*)::int AS total
               FROM processes WHERE eta IS NOT NULL GROUP BY 1, 2, 3
             EXCEPT SELECT customer_id, status, eta, total FROM process_eta_daily_counts WHERE total <> 0)
            UNION ALL
            (SELECT customer_id, status, eta, total FROM process_eta_daily_counts WHERE total <> 0
             EXCEPT SELECT customer_id, status, eta, count(*)::int
               FROM processes WHERE eta IS NOT NULL GROUP BY 1, 2, 3)) AS d`,
    );
    expect(etaTotals).toEqual([{ differing: 0 }]);
    // Every process has its list item, as sync would have rendered it.
    expect(await staleListItems(database)).toEqual([]);
    // The summary's columns as sync writes them, the declaration and the free time included.
    const stored = await rowsOf<{ numero: string; customs: unknown; freeTimeEndsAt: string | null }>(
      database.db,
      sql`SELECT numero, customs, to_char(free_time_ends_at, 'YYYY-MM-DD') AS "freeTimeEndsAt"
            FROM processes ORDER BY numero`,
    );
    const simulated = [...simulator.processesAt(new Date(spec.now))]
      .map(({ numero, customs, freeTimeEndsAt }) => ({ numero, customs, freeTimeEndsAt }))
      .sort((a, b) => (a.numero < b.numero ? -1 : 1));
    expect(simulated.filter((process) => process.customs !== null).length).toBeGreaterThan(0);
    expect(simulated.filter((process) => process.freeTimeEndsAt !== null).length).toBeGreaterThan(0);
    expect(stored).toEqual(simulated);
  });

  it('densifies with NOTE events without moving any summary field, and creates the bench users', async () => {
    const spec = datasetSpec(50, { extraNotes: 7 });

    const report = await loadDataset(options, spec, { database });

    expect(report.counts).toEqual(expectedCounts(spec));
    expect(report.counts.events).toBeGreaterThan(expectedCounts({ ...spec, extraNotes: 0 }).events);
    const [mismatch] = await rowsOf<{ count: number }>(
      database.db,
      sql`SELECT count(*)::int AS count FROM processes p
           WHERE p.follow_count <> (SELECT count(*) FROM follow_up_events e WHERE e.process_numero = p.numero)
              OR p.updated_at < (SELECT max(e.occurred_at) FROM follow_up_events e WHERE e.process_numero = p.numero)`,
    );
    expect(mismatch?.count).toBe(0);
    const users = await rowsOf<{ username: string; role: string; customers: string[] }>(
      database.db,
      sql`SELECT u.username, u.role, coalesce(array_agg(c.customer_id) FILTER (WHERE c.customer_id IS NOT NULL), '{}') AS customers
            FROM users u LEFT JOIN user_customers c ON c.user_id = u.id
           GROUP BY u.username, u.role ORDER BY u.username`,
    );
    expect(users).toEqual([
      { username: 'bench-acme', role: 'customer', customers: ['acme'] },
      { username: 'bench-staff', role: 'staff', customers: [] },
    ]);
  });

  it('fills the change feed with --changes: positions 1..N in time order, about loaded processes, head at N; a load empties it', async () => {
    const spec = datasetSpec(50, { extraNotes: 0 });
    const migrated = await indexesOf(database);

    await loadDataset(options, spec, { database, createUsers: false, changes: 600 });

    const [feed] = await rowsOf<{
      count: number;
      first: number;
      last: number;
      backwards: number;
      orphans: number;
      kinds: number;
      customers: number;
      detailsUnlikeRecorded: number;
    }>(
      database.db,
      sql`SELECT count(*)::int AS count, min(position)::int AS first, max(position)::int AS last,
                 count(*) FILTER (WHERE recorded_at < previous)::int AS backwards,
                 count(*) FILTER (WHERE NOT EXISTS (SELECT 1 FROM processes p
                                                     WHERE p.numero = c.numero AND p.customer_id = c.customer_id))::int AS orphans,
                 count(DISTINCT kind)::int AS kinds, count(DISTINCT customer_id)::int AS customers,
                 -- Details as the recorder writes them: present where the kind has some, compact.
                 count(*) FILTER (WHERE kind NOT IN ('PROCESS_ADDED', 'PROCESS_UPDATED')
                                    AND (details IS NULL OR details::text LIKE '%": %'))::int
                   AS "detailsUnlikeRecorded"
            FROM (SELECT *, lag(recorded_at) OVER (ORDER BY position) AS previous FROM process_changes) AS c`,
    );
    expect(feed).toEqual({
      count: 600,
      first: 1,
      last: 600,
      backwards: 0,
      orphans: 0,
      kinds: 6,
      customers: expect.any(Number) as number,
      detailsUnlikeRecorded: 0,
    });
    expect(feed!.customers).toBeGreaterThan(1);
    const [head] = await rowsOf<{ last: number; pruned: number }>(
      database.db,
      sql`SELECT last_position::int AS last, pruned_through::int AS pruned FROM change_feed_head`,
    );
    expect(head).toEqual({ last: 600, pruned: 0 });
    expect(await indexesOf(database)).toEqual(migrated);

    await loadDataset(options, spec, { database, createUsers: false });
    const [emptied] = await rowsOf<{ count: number; last: number }>(
      database.db,
      sql`SELECT (SELECT count(*)::int FROM process_changes) AS count,
                 (SELECT last_position::int FROM change_feed_head) AS last`,
    );
    expect(emptied).toEqual({ count: 0, last: 0 });
  });
});

describe(densify.name, () => {
  const [process] = simulatorOf(datasetSpec(5)).processesAt(new Date(datasetSpec(5).now));

  it('leaves the simulator output alone with no extra notes', () => {
    expect(densify(process!, 0)).toBe(process);
  });

  it('adds NOTE events with fresh ids between the first event and updatedAt', () => {
    const dense = densify(process!, 7);
    const added = dense.events.slice(process!.events.length);
    const first = Math.min(...process!.events.map((event) => Date.parse(event.occurredAt)));

    expect(dense.events.slice(0, process!.events.length)).toEqual(process!.events);
    expect(new Set(dense.events.map((event) => event.id)).size).toBe(dense.events.length);
    for (const event of added) {
      expect(event.code).toBe('NOTE');
      expect(Date.parse(event.occurredAt)).toBeGreaterThanOrEqual(first);
      expect(Date.parse(event.occurredAt)).toBeLessThanOrEqual(Date.parse(process!.updatedAt));
    }
    expect({ ...dense, events: process!.events }).toEqual(process);
  });
});

describe(formatTable.name, () => {
  const row = (overrides: Partial<ScenarioRow>): ScenarioRow => ({
    scenario: 'list-default',
    user: 'acme',
    connections: 4,
    requests: 12_000,
    rps: 1200.4,
    p50: 3,
    p99: 12.25,
    errors: 0,
    cpuMsPerRequest: 0.8123,
    offMainCpuMsPerRequest: 0.2051,
    bytesPerResponse: 6143.4,
    rssMb: 140.2,
    pair: 1,
    cpuRatio: 1.95,
    ...overrides,
  });

  it('prints a header with every column, then one line per row', () => {
    const table = formatTable(
      [
        row({}),
        row({
          scenario: 'detail-miss',
          connections: 16,
          p99: 95,
          pair: undefined,
          cpuRatio: undefined,
          offMainCpuMsPerRequest: null,
        }),
        row({
          scenario: 'list-default-gzip',
          bytesPerResponse: 1021.6,
          pair: undefined,
          cpuRatio: undefined,
        }),
        row({ scenario: 'baseline-list-default', bytesPerResponse: null, cpuRatio: undefined }),
      ],
      'postgres',
    );
    const lines = table.split('\n').map((line) =>
      line
        .split('|')
        .slice(1, -1)
        .map((cell) => cell.trim()),
    );

    expect(lines[0]).toEqual([...TABLE_COLUMNS]);
    expect(lines[1]!.every((cell) => /^-+$/.test(cell))).toBe(true);
    expect(lines[2]).toEqual([
      'list-default',
      '1',
      'acme',
      '4',
      '1200',
      '3.0',
      '12.3',
      '1.95x',
      '0.81',
      '0.21',
      '6143',
      '140',
      '0',
      'ok p99<30, ok cpu<=2.0x base, ok rss<300',
    ]);
    expect(lines[3]).toEqual([
      'detail-miss',
      '',
      'acme',
      '16',
      '1200',
      '3.0',
      '95.0',
      '',
      '0.81',
      '',
      '6143',
      '140',
      '0',
      'MISS p99<80, ok rss<300',
    ]);
    expect(lines[4]).toEqual([
      'list-default-gzip',
      '',
      'acme',
      '4',
      '1200',
      '3.0',
      '12.3',
      '',
      '0.81',
      '0.21',
      '1022',
      '140',
      '0',
      'ok p99<30, ok rss<300',
    ]);
    expect(lines[5]![1]).toBe('1');
    expect(lines[5]![10]).toBe('');
    expect(lines).toHaveLength(6);
  });

  it("has a gzip twin of the default list and of 100-item pages, each sending its twin's requests", () => {
    const gzipped = SCENARIOS.filter((scenario) => requestsOf(scenario).gzip);

    expect(gzipped).toEqual(['list-default-gzip', 'list-100-gzip']);
    expect(gzipped.map((scenario) => requestsOf(scenario).twin)).toEqual(['list-default', 'list-100']);
    expect(requestsOf('list-100')).toEqual({ twin: 'list-100', gzip: false });
    expect(requestsOf('baseline-list-default')).toEqual({ twin: 'baseline-list-default', gzip: false });
  });

  it('judges each target by its own threshold and connections', () => {
    const texts = (overrides: Partial<ScenarioRow>, driver: 'postgres' | 'pglite' = 'postgres') =>
      targetsOf(row(overrides), driver).map((target) => `${target.met ? 'ok' : 'MISS'} ${target.text}`);

    expect(texts({ connections: 16, p99: 79, cpuRatio: 2.01 })).toEqual([
      'ok p99<80',
      'MISS cpu<=2.0x base',
      'ok rss<300',
    ]);
    expect(texts({ connections: 4, cpuRatio: undefined })).toEqual(['ok p99<30', 'ok rss<300']);
    expect(texts({ scenario: 'list-100', connections: 4 })).toEqual(['ok rss<300']);
    expect(texts({ scenario: 'list-100-gzip', connections: 16, p99: 150 })).toEqual([
      'MISS p99<150',
      'ok rss<300',
    ]);
    expect(texts({ scenario: 'list-default-gzip', connections: 16, p99: 81, cpuMsPerRequest: 2 })).toEqual([
      'MISS p99<80',
      'ok rss<300',
    ]);
    expect(texts({ scenario: 'list-default-gzip', rps: 50 }, 'pglite')).toEqual(['ok rss<300']);
    expect(texts({ scenario: 'list-100', connections: 16, p99: 150 })).toEqual([
      'MISS p99<150',
      'ok rss<300',
    ]);
    expect(texts({ scenario: 'detail-hit', p99: 9.9, rssMb: 300 })).toEqual(['ok p99<10', 'MISS rss<300']);
    expect(texts({ scenario: 'list-channel-red', connections: 16, p99: 80 })).toEqual([
      'MISS p99<80',
      'ok rss<300',
    ]);
    expect(texts({ scenario: 'list-sea-import', connections: 4, p99: 80 })).toEqual(['ok rss<300']);
    expect(texts({ scenario: 'changes-page-100', connections: 16, p99: 19 })).toEqual([
      'ok p99<20',
      'ok cpu<=2.5x base',
      'ok rss<300',
    ]);
    expect(texts({ scenario: 'changes-page-100', cpuRatio: 2.6 })).toEqual([
      'MISS cpu<=2.5x base',
      'ok rss<300',
    ]);
    expect(texts({ rps: 119, cpuMsPerRequest: null, rssMb: null }, 'pglite')).toEqual(['MISS rps>=120']);
    expect(texts({ requests: 0 })).toEqual(['MISS no answers']);
    expect(texts({ scenario: 'baseline-list-default', errors: 3 })).toEqual([]);
    expect(texts({ scenario: 'baseline-changes-page-100', connections: 16, p99: 50 })).toEqual([]);
    expect(texts({ scenario: 'list-page-500', errors: 2, rssMb: null })).toEqual([
      'ok p99<80',
      'MISS no errors',
    ]);
  });
});

describe('interleaved pairs', () => {
  it('runs a scenario and its selected twin in alternating pairs, and every other scenario once', () => {
    expect(runOrder(['list-default', 'detail-hit', 'changes-page-100', 'baseline-list-default'], 2)).toEqual([
      { scenario: 'list-default', pair: 1 },
      { scenario: 'baseline-list-default', pair: 1 },
      { scenario: 'list-default', pair: 2 },
      { scenario: 'baseline-list-default', pair: 2 },
      { scenario: 'detail-hit' },
      { scenario: 'changes-page-100' },
    ]);
    expect(runOrder(['baseline-changes-page-100'], 3)).toEqual([{ scenario: 'baseline-changes-page-100' }]);
  });

  it('judges a scenario on the median of its pairs’ CPU ratios, not on any one pair', () => {
    const run = (scenario: ScenarioRow['scenario'], pair: number, cpu: number, rps: number): ScenarioRow => ({
      scenario,
      pair,
      user: 'acme',
      connections: 4,
      requests: 1000,
      rps,
      p50: 5,
      p99: 10 * pair,
      errors: 0,
      cpuMsPerRequest: cpu,
      offMainCpuMsPerRequest: null,
      bytesPerResponse: 100,
      rssMb: 150,
    });
    const rows = [
      run('list-default', 1, 2.4, 300),
      run('baseline-list-default', 1, 1.0, 600),
      run('list-default', 2, 3.0, 200),
      run('baseline-list-default', 2, 1.0, 500),
      run('list-default', 3, 2.1, 310),
      run('baseline-list-default', 3, 1.2, 650),
    ];

    const [summary, ...others] = summarisePairs(rows);

    expect(others).toEqual([]);
    expect(summary).toMatchObject({ scenario: 'list-default', user: 'acme', connections: 4, target: 2 });
    expect(summary!.ratios.map((ratio) => ratio.toFixed(2))).toEqual(['2.40', '3.00', '1.75']);
    expect(summary!.medianRatio).toBeCloseTo(2.4);
    expect(summary!.met).toBe(false);
    expect(summary!.service).toEqual({ rps: 300, p99: 20, cpuMsPerRequest: 2.4 });
    expect(rows[4]!.cpuRatio).toBeCloseTo(1.75);
    expect(formatPairs([summary!])).toContain(
      '| list-default | acme | 4 | 2.40, 3.00, 1.75 | 2.40 | MISS <= 2.0 |',
    );
  });

  it('takes the middle value, or the mean of the two middle ones', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([])).toBeNaN();
  });

  it('calls the warm-up settled when its last two slices agree within 5%', () => {
    expect(warmupSettled([4.1])).toBe(false);
    expect(warmupSettled([4.1, 3.2, 2.6])).toBe(false);
    expect(warmupSettled([4.1, 3.2, 2.6, 2.5])).toBe(true);
    expect(warmupSettled([2.5, 2.4, 2.7])).toBe(false);
  });
});
