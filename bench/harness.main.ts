import 'reflect-metadata';
import { fork, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { sql } from 'drizzle-orm';
import { DatabaseService } from '../src/database/database.service.js';
import { startSandboxServer } from '../sandbox/src/server/sandbox.server.js';
import { rowsOf } from '../src/database/sql-rows.js';
import { BENCH_USERS, LARGE_CUSTOMER_ID, sandboxOf, type BenchUserKey, type DatasetSpec } from './dataset.js';
import type { DriveResult } from './driver.js';
import { startDriver } from './driver-process.js';
import { encodeCursor } from '../src/changes/change-cursor.js';
import {
  captureChangesStatement,
  captureListStatements,
  FEED_PAGE_LIMIT,
  type Statement,
} from './list-statements.js';
import { readDatasetSpec } from './loader.js';
import { loadAverage, memoryOf, sampleRss } from './proc-stats.js';
import { login, startService, stopService } from './service-process.js';
import {
  BASELINE_OF,
  formatPairs,
  formatTable,
  requestsOf,
  runOrder,
  SCENARIOS,
  summarisePairs,
  warmupSettled,
  type ScenarioName,
  type ScenarioRow,
} from './report.js';

/** Warm-up runs in slices this long, each a point of the warm-up curve. */
const WARMUP_SLICE_S = 2;

const USAGE = `Usage: npm run bench -- (--database-url postgres://... | --pglite-dir DIR)
        [--connections 4,16] [--duration 10] [--warmup 5] [--warmup-max 60] [--pairs 3]
        [--users staff,largeCustomer] [--scenarios list-default,...] [--out DIR] [--skip-explain]
        [--node-flags "--cpu-prof --cpu-prof-dir=DIR"] [--service-dir CHECKOUT]

Boots the service (its own build of src/, NODE_ENV=production) on a database loaded by
bench:load, with an HTTP operations simulator (50 ms latency) started here, and drives it with
autocannon from a separate process. Scenarios: ${SCENARIOS.join(', ')}; a -gzip one sends
its twin's requests with Accept-Encoding: gzip; a baseline- one sends its twin's requests to a
framework-free node:http + pg server that answers them from the same statements (PostgreSQL only).
changes-page-100 needs a feed (bench:load --changes) and reads 100 changes after cursors spread
from its start to its end.

A scenario whose baseline twin is selected runs in --pairs interleaved pairs (ours, theirs, ours,
theirs...), judged on the median of the pairs' CPU-a-request ratios. Each run warms up in
${WARMUP_SLICE_S}-second slices, at least --warmup seconds and at most --warmup-max, until two slices'
CPU a request agree within 5% (the JIT has settled); CPU is read around the measured run alone.
--node-flags adds node flags to the service's (a profiler: --cpu-prof --cpu-prof-dir=DIR, or
--perf-basic-prof); --service-dir runs another checkout's build (its dist/main.js, from there).`;

/** This file runs from <build>/bench/; the service built with it is <build>/src/main.js. */
const HERE = dirname(fileURLToPath(import.meta.url));
const UPSTREAM_LATENCY_MS = 50;

interface Options {
  url: string | null;
  pgliteDir: string | null;
  connections: number[];
  duration: number;
  warmup: number;
  warmupMax: number;
  pairs: number;
  nodeFlags: string[];
  serviceDir: string | undefined;
  users: BenchUserKey[];
  scenarios: ScenarioName[];
  out: string;
  explain: boolean;
}

interface Fixtures {
  /** Numeros for detail misses, never requested before in this run. */
  missNumeros: string[];
  hitNumero: string;
  coldNumero: string;
  container: string;
}

/** Each baseline scenario and the service's scenario it answers the same requests of. */
const BASELINES = new Map<ScenarioName, ScenarioName>(
  [...BASELINE_OF].map(([ours, theirs]) => [theirs, ours]),
);

/** Pages of the change feed: cursors spread over all of it, from its start to its end. */
const FEED_CURSORS = 30;
/** Positions that far before the end still fill a page for a customer with a fifth of the changes. */
const FEED_TAIL_MARGIN = 1_000;

/** Where the feed's pages start: position 0, the end less the margin, and evenly between. */
function feedPositions(lastPosition: number): number[] {
  if (lastPosition <= FEED_TAIL_MARGIN) return [];
  const span = lastPosition - FEED_TAIL_MARGIN;
  return Array.from({ length: FEED_CURSORS }, (_, i) => Math.round((span * i) / (FEED_CURSORS - 1)));
}

const userLabel = (key: BenchUserKey): string => (key === 'staff' ? 'staff' : LARGE_CUSTOMER_ID);
const visibilityOf = (key: BenchUserKey) => ({
  customerIds: key === 'staff' ? null : [...BENCH_USERS[key].customerIds],
});

function parseOptions(): Options {
  const { values } = parseArgs({
    args: process.argv.slice(2),
    strict: true,
    options: {
      'database-url': { type: 'string' },
      'pglite-dir': { type: 'string' },
      connections: { type: 'string', default: '4,16' },
      duration: { type: 'string', default: '10' },
      warmup: { type: 'string', default: '5' },
      'warmup-max': { type: 'string', default: '60' },
      pairs: { type: 'string', default: '3' },
      'node-flags': { type: 'string', default: '' },
      'service-dir': { type: 'string' },
      users: { type: 'string', default: 'largeCustomer,staff' },
      scenarios: { type: 'string', default: SCENARIOS.join(',') },
      out: { type: 'string', default: 'node_modules/.cache/process-lookup-bench-results' },
      'skip-explain': { type: 'boolean' },
      help: { type: 'boolean' },
    },
  });
  if (values.help === true) {
    process.stdout.write(`${USAGE}\n`);
    process.exit(0);
  }
  const url = values['database-url'] ?? null;
  const pgliteDir = values['pglite-dir'] ?? null;
  if ((url === null) === (pgliteDir === null))
    throw new RangeError('give one of --database-url and --pglite-dir');
  const users = values.users.split(',') as BenchUserKey[];
  if (users.some((user) => !(user in BENCH_USERS)))
    throw new RangeError('--users: staff and/or largeCustomer');
  const scenarios = values.scenarios.split(',') as ScenarioName[];
  if (scenarios.some((scenario) => !SCENARIOS.includes(scenario))) {
    throw new RangeError(`--scenarios: some of ${SCENARIOS.join(', ')}`);
  }
  return {
    url,
    pgliteDir,
    connections: values.connections.split(',').map(Number),
    duration: Number(values.duration),
    warmup: Number(values.warmup),
    warmupMax: Number(values['warmup-max']),
    pairs: Number(values.pairs),
    nodeFlags: values['node-flags'].split(/\s+/).filter((flag) => flag !== ''),
    serviceDir: values['service-dir'],
    users,
    scenarios,
    out: values.out,
    explain: values['skip-explain'] !== true && url !== null,
  };
}

const log = (message: string): void => void process.stdout.write(`${message}\n`);

async function main(): Promise<void> {
  const options = parseOptions();
  const driver = options.url === null ? 'pglite' : 'postgres';
  log(`# bench: ${driver} ${options.url ?? options.pgliteDir}; load average ${loadAverage()}`);

  // Fixtures first: PGlite allows one process on a directory, and the service is next.
  const database = await DatabaseService.connect({ url: options.url, pgliteDir: options.pgliteDir ?? '' });
  const spec = await readDatasetSpec(database);
  if (spec === null) throw new Error('not a bench database: load it with npm run bench:load first');
  // A dataset loaded before the latest migrations gets them now, before EXPLAIN runs the service's
  // statements (the service would apply them too, but only once it starts).
  await database.migrate();
  const fixtures = new Map<BenchUserKey, Fixtures>();
  for (const user of options.users) fixtures.set(user, await fixturesOf(database, user, spec));
  const [{ count }] = (await rowsOf<{ count: number }>(
    database.db,
    sql`SELECT count(*)::int AS count FROM processes`,
  )) as [{ count: number }];
  const [{ lastPosition }] = (await rowsOf<{ lastPosition: number }>(
    database.db,
    sql`SELECT last_position::float8 AS "lastPosition" FROM change_feed_head`,
  )) as [{ lastPosition: number }];
  await database.close();
  log(
    `# dataset: ${count} processes, seed ${spec.seed}, ${spec.customerCount} customers, now ${spec.now}, ` +
      `${lastPosition} changes in the feed`,
  );
  const positions = feedPositions(lastPosition);
  const feedPaths = positions.map(
    (position) => `/api/changes?after=${encodeCursor(position)}&limit=${FEED_PAGE_LIMIT}`,
  );

  const queries = new Map<BenchUserKey, Record<string, string>>();
  for (const user of options.users) queries.set(user, listQueries(spec, fixtures.get(user)!));

  const explained = options.explain
    ? [
        ...(await explainAll(options.url!, options.users, queries)),
        ...(options.scenarios.includes('changes-page-100') && positions.length > 0
          ? await explainChanges(options.url!, options.users, positions)
          : []),
      ]
    : [];

  const simulator = await startSandboxServer({
    apiKey: 'bench-operations-key',
    ...sandboxOf(spec),
    faults: { latencyMs: UPSTREAM_LATENCY_MS },
  });
  const children: ChildProcess[] = [];
  let service: { url: string; child: ChildProcess } | null = null;
  try {
    service = await startService({
      url: options.url,
      pgliteDir: options.pgliteDir,
      operationsUrl: simulator.url,
      nodeFlags: options.nodeFlags,
      serviceDir: options.serviceDir,
    });
    if (options.serviceDir !== undefined) log(`# service: the build of ${options.serviceDir}`);
    const drive = startDriver();
    children.push(drive.child);

    const tokens = new Map<BenchUserKey, string>();
    for (const user of options.users) {
      const { username, password } = BENCH_USERS[user];
      tokens.set(user, await login(service.url, username, password));
    }

    const rows: ScenarioRow[] = [];
    const warmups: string[] = [];
    for (const user of options.users) {
      const headers = { authorization: `Bearer ${tokens.get(user)}` };
      const userQueries = queries.get(user)!;
      const userFixtures = fixtures.get(user)!;
      let baseline: { url: string; child: ChildProcess } | null = null;
      if (options.url !== null && options.scenarios.some((scenario) => BASELINES.has(scenario))) {
        baseline = await startBaseline(options.url, user);
        children.push(baseline.child);
        await compareBytes(service.url, baseline.url, headers, '/api/processes');
        if (feedPaths.length > 0) await compareBytes(service.url, baseline.url, headers, feedPaths.at(-1)!);
      }
      let missOffset = 0;
      for (const connections of options.connections) {
        for (const { scenario, pair } of runOrder(options.scenarios, options.pairs)) {
          const target = BASELINES.has(scenario)
            ? baseline === null
              ? null
              : { url: baseline.url, pid: baseline.child.pid! }
            : { url: service.url, pid: service.child.pid! };
          if (target === null) continue;
          const { twin, gzip } = requestsOf(scenario);
          const asked = BASELINES.get(twin) ?? twin;
          const scenarioHeaders = gzip ? { ...headers, 'accept-encoding': 'gzip' } : headers;
          let paths: string[];
          if (scenario === 'detail-hit') {
            paths = [`/api/processes/${userFixtures.hitNumero}`];
          } else if (scenario === 'detail-miss') {
            paths = userFixtures.missNumeros.slice(missOffset).map((numero) => `/api/processes/${numero}`);
            // Misses cannot exceed connections / 50 ms a second; with fewer unused numeros than
            // that the rotation would come back to cached ones and measure hits.
            const needed =
              ((connections * 1000) / UPSTREAM_LATENCY_MS) * (options.warmupMax + options.duration);
            if (paths.length < needed) {
              log(
                `# detail-miss as ${userLabel(user)} c=${connections} skipped: ${paths.length} unused numeros`,
              );
              continue;
            }
          } else if (asked === 'changes-page-100') {
            if (feedPaths.length === 0) {
              log(`# ${scenario} skipped: the feed is empty (bench:load --changes <n>)`);
              continue;
            }
            paths = feedPaths;
          } else {
            const query = userQueries[asked] ?? '';
            paths = [`/api/processes${query === '' ? '' : `?${query}`}`];
          }
          const run = async (seconds: number): Promise<DriveResult> => {
            const result = await drive.run({
              url: target.url,
              paths,
              headers: scenarioHeaders,
              connections,
              durationSeconds: seconds,
              serverPid: target.pid,
            });
            if (scenario === 'detail-miss') {
              missOffset += result.used;
              paths = paths.slice(result.used);
            }
            return result;
          };
          const label = `${scenario}${pair === undefined ? '' : ` (pair ${pair})`} as ${userLabel(user)} c=${connections}`;
          warmups.push(`${label}: ${await warmUp(run, options)}`);
          await settle(options.url, target.url);
          const rss = sampleRss(target.pid);
          const result = await run(options.duration);
          const rssMb = rss.stop();
          if (scenario === 'detail-miss' && missOffset > userFixtures.missNumeros.length) {
            log('# warning: detail-miss reused numeros');
          }
          await settle(options.url, target.url);
          const perRequest = (ms: number | null) =>
            result.requests > 0 && ms !== null ? ms / result.requests : null;
          const row: ScenarioRow = {
            scenario,
            ...(pair !== undefined && { pair }),
            user: userLabel(user),
            connections,
            requests: result.requests,
            rps: result.rps,
            p50: result.p50,
            p99: result.p99,
            errors: result.errors,
            cpuMsPerRequest: perRequest(result.serverCpuMs),
            offMainCpuMsPerRequest: perRequest(result.serverOffMainCpuMs),
            bytesPerResponse: result.bodyBytes,
            rssMb,
          };
          rows.push(row);
          log(
            `${label}: ${row.rps.toFixed(0)} req/s, p50 ${row.p50} ms, ` +
              `p99 ${row.p99} ms, ${row.cpuMsPerRequest?.toFixed(2) ?? 'n/a'} ms CPU/req ` +
              `(${row.offMainCpuMsPerRequest?.toFixed(2) ?? 'n/a'} off the main thread), ` +
              `${row.bytesPerResponse?.toFixed(0) ?? 'n/a'} bytes/response, ${rssMb.toFixed(0)} MB, ` +
              `${row.errors} errors (load ${loadAverage()})`,
          );
        }
      }
      if (baseline !== null) {
        baseline.child.disconnect();
        await once(baseline.child, 'exit');
      }
    }
    const pairs = summarisePairs(rows);

    const coalescing = await coldBurst(service.url, tokens, fixtures, simulator);
    const peak = memoryOf(service.child.pid!).peakMb;
    const heap = await heapMetrics(service.url);

    const report = [
      `# ${driver}, ${count} processes (${spec.processCount} planned), load average at the end ${loadAverage()}`,
      '',
      formatTable(rows, driver),
      '',
      ...(pairs.length === 0
        ? []
        : ['Interleaved pairs, judged on the median CPU ratio:', '', formatPairs(pairs), '']),
      `Warm-up, ms of CPU a request per ${WARMUP_SLICE_S}-second slice:`,
      '',
      ...warmups.map((line) => `- ${line}`),
      '',
      `Service peak RSS (VmHWM): ${peak.toFixed(0)} MB${heap === '' ? '' : `; at the end, ${heap}`}`,
      `100 concurrent requests for one cold process: ${coalescing}`,
      '',
      ...explainSummary(explained, rows),
    ].join('\n');
    log(`\n${report}`);
    mkdirSync(options.out, { recursive: true });
    const stamp = new Date().toISOString().replace(/[:.]/g, '-');
    const file = join(options.out, `bench-${driver}-${count}-${stamp}`);
    writeFileSync(`${file}.md`, `${report}\n\n${explained.map((entry) => entry.text).join('\n\n')}\n`);
    writeFileSync(
      `${file}.json`,
      JSON.stringify({ spec, count, rows, pairs, warmups, peak, coalescing, explained }, null, 2),
    );
    log(`\nResults and plans: ${file}.md`);
  } finally {
    for (const child of children) child.kill('SIGTERM');
    if (service !== null) await stopService(service.child);
    const profileDir = options.nodeFlags.find((flag) => flag.startsWith('--cpu-prof-dir='));
    if (profileDir !== undefined) log(`# CPU profile of the service in ${profileDir.split('=')[1]}`);
    await simulator.close();
  }
}

/**
 * Runs `run` in slices of {@link WARMUP_SLICE_S} seconds, at least `--warmup` and at most
 * `--warmup-max` seconds in all, until the last two slices' CPU a request agree: the JIT has
 * compiled what the scenario runs. Returns the curve, for the report.
 */
async function warmUp(run: (seconds: number) => Promise<DriveResult>, options: Options): Promise<string> {
  const curve: number[] = [];
  let seconds = 0;
  while (seconds < options.warmupMax) {
    const slice = await run(WARMUP_SLICE_S);
    seconds += WARMUP_SLICE_S;
    if (slice.requests > 0 && slice.serverCpuMs !== null) curve.push(slice.serverCpuMs / slice.requests);
    if (seconds >= options.warmup && warmupSettled(curve)) {
      return `${curve.map((cpu) => cpu.toFixed(2)).join(', ')} (settled after ${seconds} s)`;
    }
  }
  return `${curve.map((cpu) => cpu.toFixed(2)).join(', ')} (NOT settled after ${seconds} s)`;
}

/** Numeros the user may see, distinct per use, and one of its container numbers. */
async function fixturesOf(
  database: DatabaseService,
  user: BenchUserKey,
  spec: DatasetSpec,
): Promise<Fixtures> {
  // Staff misses come from customers other than the large one, so the two users never share one.
  const condition =
    user === 'staff' ? sql`customer_id <> ${LARGE_CUSTOMER_ID}` : sql`customer_id = ${LARGE_CUSTOMER_ID}`;
  const numeros = (
    await rowsOf<{ numero: string }>(
      database.db,
      sql`SELECT numero FROM processes WHERE ${condition} ORDER BY md5(numero || ${String(spec.seed)}) LIMIT 30002`,
    )
  ).map((row) => row.numero);
  const [container] = await rowsOf<{ container: string }>(
    database.db,
    sql`SELECT c.container_number AS container
          FROM process_containers c JOIN processes p ON p.numero = c.process_numero
         WHERE ${user === 'staff' ? sql`true` : sql`p.customer_id = ${LARGE_CUSTOMER_ID}`}
         ORDER BY c.process_numero LIMIT 1`,
  );
  if (numeros.length < 3 || container === undefined) throw new Error(`too few processes for ${user}`);
  return {
    hitNumero: numeros[0]!,
    coldNumero: numeros[1]!,
    missNumeros: numeros.slice(2),
    container: container.container,
  };
}

/**
 * The list scenarios' query strings; the filtered one is the last 30 days of changes in two
 * statuses, and the arrival ones are the Arrivals view's two questions (the next 7 days' ETAs,
 * free time ending in the next 3 days), sorted as it sorts them.
 */
function listQueries(spec: DatasetSpec, fixtures: Fixtures): Record<string, string> {
  const to = new Date(spec.now);
  const from = new Date(to.getTime() - 30 * 86_400_000);
  const day = (date: Date): string => date.toISOString().slice(0, 10);
  const daysAfter = (date: Date, days: number): Date => new Date(date.getTime() + days * 86_400_000);
  return {
    'list-default': '',
    'list-100': 'pageSize=100',
    'list-filtered': `status=IN_TRANSIT,CUSTOMS_CLEARANCE&updatedFrom=${day(from)}&updatedTo=${day(to)}`,
    'list-container': `container=${fixtures.container}`,
    'list-page-500': 'page=500',
    'list-channel-red': 'customsChannel=RED',
    'list-sea-import': 'mode=SEA&type=IMPORT',
    'list-arriving-week': `etaFrom=${day(to)}&etaTo=${day(daysAfter(to, 6))}&sort=eta`,
    'list-free-time-3d': `freeTimeEndsFrom=${day(to)}&freeTimeEndsTo=${day(daysAfter(to, 2))}&sort=freeTimeEndsAt`,
  };
}

interface Explained {
  user: string;
  scenario: string;
  statement: 'count' | 'page';
  executionMs: number;
  /** Median client round trip of the statement, sequentially, ms. */
  roundTripMs: number;
  text: string;
}

async function explainAll(
  url: string,
  users: BenchUserKey[],
  queries: Map<BenchUserKey, Record<string, string>>,
): Promise<Explained[]> {
  const client = new pg.Client({ connectionString: url, application_name: 'bench-explain' });
  await client.connect();
  const explained: Explained[] = [];
  try {
    for (const user of users) {
      for (const [scenario, query] of Object.entries(queries.get(user)!)) {
        const statements = await captureListStatements(client, query, visibilityOf(user));
        for (const [name, statement] of [
          ['count', statements.count],
          ['page', statements.page],
        ] as Array<['count' | 'page', Statement | null]>) {
          if (statement === null) continue;
          explained.push(await explainOne(client, userLabel(user), scenario, name, statement));
        }
      }
    }
  } finally {
    await client.end();
  }
  return explained;
}

/** EXPLAIN (ANALYZE, BUFFERS) of one statement, and its median round trip run as is. */
async function explainOne(
  client: pg.Client,
  user: string,
  scenario: string,
  name: 'count' | 'page',
  statement: Statement,
): Promise<Explained> {
  const plan = await client.query<{ 'QUERY PLAN': string }>(
    `EXPLAIN (ANALYZE, BUFFERS) ${statement.text}`,
    statement.values,
  );
  const lines = plan.rows.map((row) => row['QUERY PLAN']);
  const executionMs = Number(/Execution Time: ([\d.]+)/.exec(lines.join('\n'))?.[1] ?? NaN);
  const times: number[] = [];
  // Fifteen round trips, or three when one takes seconds (a deep OFFSET page).
  for (let i = 0; i < (executionMs > 200 ? 3 : 15); i++) {
    const t = process.hrtime.bigint();
    await client.query(statement.text, statement.values);
    times.push(Number(process.hrtime.bigint() - t) / 1e6);
  }
  times.sort((a, b) => a - b);
  const roundTripMs = times[Math.floor(times.length / 2)]!;
  return {
    user,
    scenario,
    statement: name,
    executionMs,
    roundTripMs,
    text: [
      `## ${scenario} as ${user}: ${name} statement (${executionMs} ms execution, ${roundTripMs.toFixed(2)} ms round trip)`,
      '',
      '```sql',
      `${statement.text}`,
      `-- ${JSON.stringify(statement.values)}`,
      '```',
      '',
      '```',
      ...lines,
      '```',
    ].join('\n'),
  };
}

/**
 * EXPLAIN of the feed's page statement after its first, middle and last cursor: same cost at any
 * depth? The statement calls `change_feed_page`, whose own query auto_explain shows.
 */
async function explainChanges(url: string, users: BenchUserKey[], positions: number[]): Promise<Explained[]> {
  const client = new pg.Client({ connectionString: url, application_name: 'bench-explain' });
  await client.connect();
  const explained: Explained[] = [];
  try {
    const depths = [positions[0]!, positions[Math.floor(positions.length / 2)]!, positions.at(-1)!];
    for (const user of users) {
      for (const position of depths) {
        const statement = await captureChangesStatement(
          client,
          position,
          FEED_PAGE_LIMIT,
          visibilityOf(user),
        );
        const scenario = `changes-page-100 after ${position}`;
        const result = await explainOne(client, userLabel(user), scenario, 'page', statement);
        const inside = await planInsideFunction(client, statement);
        explained.push({
          ...result,
          text: [result.text, '', 'Inside the function:', '', '```', ...inside, '```'].join('\n'),
        });
      }
    }
  } finally {
    await client.end();
  }
  return explained;
}

/**
 * The analysed plan of the query inside the function `statement` calls, from one more run with
 * auto_explain logging nested statements to this client; apart from the timed runs, which it
 * would slow.
 */
async function planInsideFunction(client: pg.Client, statement: Statement): Promise<string[]> {
  const plans: string[] = [];
  const collect = (notice: { message?: string }): void => {
    if (notice.message?.startsWith('duration:') === true) plans.push(notice.message);
  };
  await client.query(`LOAD 'auto_explain'`);
  await client.query(
    `SET auto_explain.log_min_duration = 0; SET auto_explain.log_nested_statements = on;
     SET auto_explain.log_analyze = on; SET auto_explain.log_buffers = on; SET client_min_messages = log`,
  );
  client.on('notice', collect);
  try {
    await client.query(statement.text, statement.values);
  } finally {
    client.off('notice', collect);
    await client.query('RESET auto_explain.log_min_duration; RESET client_min_messages');
  }
  // The call itself is logged too, after the query inside it.
  return plans.filter((plan) => !plan.includes('change_feed_page('));
}

/**
 * Where the count came from: the kept per-status totals, the per-day totals (plus the range's
 * partial days, counted), the per-ETA-day totals, an index alone, or the table's rows.
 */
function countSource(count: Explained | undefined): string {
  if (count === undefined) return 'skipped';
  if (count.text.includes('process_counts')) return 'totals';
  if (count.text.includes('process_daily_counts')) return 'daily totals';
  if (count.text.includes('process_eta_daily_counts')) return 'ETA daily totals';
  return count.text.includes('Index Only Scan') ? 'index only' : 'ROWS';
}

function explainSummary(explained: Explained[], rows: ScenarioRow[]): string[] {
  if (explained.length === 0) return [];
  const lines = [
    '| list scenario | as | count ms (exec / round trip) | page ms (exec / round trip) | count reads | DB total ms | our p50 at lowest conn − DB ms |',
    '|---|---|---|---|---|---|---|',
  ];
  const keys = [...new Set(explained.map((entry) => `${entry.scenario}|${entry.user}`))];
  for (const key of keys) {
    const [scenario, user] = key.split('|') as [string, string];
    const count = explained.find(
      (e) => e.scenario === scenario && e.user === user && e.statement === 'count',
    );
    const page = explained.find((e) => e.scenario === scenario && e.user === user && e.statement === 'page');
    const db = (count?.roundTripMs ?? 0) + (page?.roundTripMs ?? 0);
    const row = rows
      .filter((r) => r.scenario === scenario && r.user === user)
      .sort((a, b) => a.connections - b.connections)[0];
    const cell = (entry: Explained | undefined): string =>
      entry === undefined ? 'skipped' : `${entry.executionMs.toFixed(2)} / ${entry.roundTripMs.toFixed(2)}`;
    lines.push(
      `| ${scenario} | ${user} | ${cell(count)} | ${cell(page)} | ${countSource(count)} | ` +
        `${db.toFixed(2)} | ${row === undefined ? '' : `${(row.p50 - db).toFixed(1)} (c=${row.connections})`} |`,
    );
  }
  return lines;
}

/**
 * Waits until the service has no statement running, so that work queued by one scenario (requests
 * the driver gave up on) does not slow the next one.
 */
async function settle(url: string | null, serverUrl: string): Promise<void> {
  if (url === null) {
    // PGlite runs its statements one at a time in the service's thread: the readiness probe's
    // SELECT 1 waits behind whatever is queued, so a quick answer means the queue is empty.
    for (let waited = 0; waited < 300_000;) {
      const started = Date.now();
      await fetch(`${serverUrl}/health/ready`).then(
        (response) => response.arrayBuffer(),
        () => null,
      );
      const took = Date.now() - started;
      if (took < 100) return;
      waited += took + 250;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    log('# warning: the service stayed busy for five minutes after a scenario');
    return;
  }
  const client = new pg.Client({ connectionString: url, application_name: 'bench-settle' });
  await client.connect();
  try {
    for (let waited = 0; waited < 120_000; waited += 250) {
      const { rows } = await client.query<{ active: number }>(
        `SELECT count(*)::int AS active FROM pg_stat_activity
          WHERE application_name IN ('process-lookup', 'bench-baseline') AND state = 'active'`,
      );
      if (rows[0]?.active === 0) return;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    log('# warning: the database stayed busy for two minutes after a scenario');
  } finally {
    await client.end();
  }
}

async function startBaseline(url: string, user: BenchUserKey): Promise<{ url: string; child: ChildProcess }> {
  const child = fork(join(HERE, 'baseline-server.js'), [], {
    env: {
      PATH: process.env.PATH,
      DATABASE_URL: url,
      BASELINE_QUERY: '',
      BASELINE_CUSTOMERS: visibilityOf(user).customerIds?.join(',') ?? '',
    },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const [message] = (await once(child, 'message')) as [{ port: number }];
  return { url: `http://127.0.0.1:${message.port}`, child };
}

/** The baseline must answer the very bytes the service does, or the comparison means nothing. */
async function compareBytes(
  serviceUrl: string,
  baselineUrl: string,
  headers: Record<string, string>,
  path: string,
) {
  const ours = await (await fetch(`${serviceUrl}${path}`, { headers })).text();
  const theirs = await (await fetch(`${baselineUrl}${path}`)).text();
  log(
    ours === theirs
      ? `# baseline answers ${path} with the same ${Buffer.byteLength(ours)} bytes as the service`
      : `# WARNING: baseline body for ${path} differs from the service's (${ours.length} vs ${theirs.length} chars)`,
  );
}

/** Where the memory is, from the service's Prometheus default metrics (when it has them). */
async function heapMetrics(url: string): Promise<string> {
  const response = await fetch(`${url}/metrics`).catch(() => null);
  if (response === null || response.status !== 200) return '';
  const text = await response.text();
  const mb = (name: string): string => {
    const value = new RegExp(`^${name}(?:\\{[^}]*\\})? ([\\d.e+]+)$`, 'm').exec(text)?.[1];
    return value === undefined ? '?' : (Number(value) / 2 ** 20).toFixed(0);
  };
  return (
    `V8 heap used ${mb('nodejs_heap_size_used_bytes')} MB of ${mb('nodejs_heap_size_total_bytes')} MB, ` +
    `external ${mb('nodejs_external_memory_bytes')} MB, RSS ${mb('process_resident_memory_bytes')} MB`
  );
}

/** 100 simultaneous detail requests for one never-requested process: how many upstream calls? */
async function coldBurst(
  url: string,
  tokens: Map<BenchUserKey, string>,
  fixtures: Map<BenchUserKey, Fixtures>,
  simulator: { readonly requestCount: number },
): Promise<string> {
  const [user, token] = [...tokens][0]!;
  const numero = fixtures.get(user)!.coldNumero;
  const before = simulator.requestCount;
  const statuses = await Promise.all(
    Array.from({ length: 100 }, () =>
      fetch(`${url}/api/processes/${numero}`, { headers: { authorization: `Bearer ${token}` } }).then(
        async (response) => {
          await response.arrayBuffer();
          return response.status;
        },
      ),
    ),
  );
  const calls = simulator.requestCount - before;
  const ok = statuses.filter((status) => status === 200).length;
  return `${ok}/100 answered 200, ${calls} upstream call${calls === 1 ? '' : 's'} (${calls === 1 ? 'ok' : 'MISS'})`;
}

main().catch((error: unknown) => {
  console.error(`bench: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  process.exitCode = 1;
});
