import 'reflect-metadata';
import type { ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { PasswordHasher } from '../src/auth/password-hasher.service.js';
import { UsersRepository } from '../src/auth/users/users.repository.js';
import { decodeCursor } from '../src/changes/change-cursor.js';
import { ChangeRecorder } from '../src/changes/change-recorder.js';
import type { ChangeDraft } from '../src/changes/process-changes.js';
import { DatabaseService } from '../src/database/database.service.js';
import { customers } from '../src/database/schema.js';
import { BENCH_USERS } from './dataset.js';
import { markFeed, restoreFeed, vacuum } from './feed-mark.js';
import { median } from './report.js';
import type { DriveResult } from './driver.js';
import { startDriver } from './driver-process.js';
import { cpuMillisOf, loadAverage, sampleRss } from './proc-stats.js';
import { login, startService } from './service-process.js';

const SCENARIOS = ['burst', 'backlog', 'requests'] as const;
type Scenario = (typeof SCENARIOS)[number];

const USAGE = `Usage: npm run bench:webhooks -- --database-url postgres://... [--customers 10] [--per-customer 10]
                              [--changes 1000] [--scenarios ${SCENARIOS.join(',')}] [--seconds 10]

Boots the service (its own build, as npm run bench does; it migrates the database) with webhooks
allowed to local http receivers. --customers customers (bench-wh-<n>), each with a customer user
(bench-webhook-<n>, created when missing) subscribing --per-customer local receivers (answering 204).

  burst     every customer records --changes changes in a burst (one transaction each, back to
            back, as sync's ChangeRecorder does): deliveries/s, whether all arrived within 2 min,
            the lag from each COMMIT to the receiver's 2xx (p50/p99), order and duplicates, and the
            service's and PostgreSQL's CPU per delivery.
  backlog   one receiver answers 503 while its customer's --changes changes are recorded, and is back
            after that first failure: its backlog's drain rate (the target: >= 200/s) and order.
  requests  the harness's driver (autocannon, its own process) on the list (bench-acme) and on a feed
            page (bench-staff) for --seconds each (after a warm-up of each), in 3 pairs of a quiet run
            and a run while a burst is being delivered, on the same data (the burst recorded first,
            its subscriptions paused for the quiet runs): each delivering run as a share of its quiet one.
            Needs a loaded dataset (npm run bench:load) for its users and processes.

The subscriptions are deleted afterwards, and the changes recorded here too: the feed ends where it did.`;

const PASSWORD = 'bench-webhook-2026';
/** What a run writes to, vacuumed before and after it. */
const WRITTEN_TABLES = ['process_changes', 'change_feed_head', 'webhook_subscriptions', 'webhook_deliveries'];
const TIMEOUT_MS = 300_000;
const CONNECTIONS = 8;
const WARMUP_SECONDS = 10;
/** Quiet and delivering runs of each request scenario, alternating. */
const REQUEST_PAIRS = 3;

interface Options {
  url: string;
  customers: number;
  perCustomer: number;
  changes: number;
  scenarios: Scenario[];
  seconds: number;
}

/** What the receiver saw at one path (one subscription). */
interface Received {
  ids: string[];
  arrivals: number[];
  failures: number;
}

interface Bench {
  options: Options;
  database: DatabaseService;
  service: { url: string; child: ChildProcess };
  receiverUrl: string;
  received: Map<string, Received>;
  /** Paths answering 503 (a receiver that is down). */
  down: Set<string>;
  tokens: string[];
}

function parseOptions(): Options | null {
  const { values } = parseArgs({
    options: {
      'database-url': { type: 'string' },
      customers: { type: 'string', default: '10' },
      'per-customer': { type: 'string', default: '10' },
      changes: { type: 'string', default: '1000' },
      scenarios: { type: 'string', default: SCENARIOS.join(',') },
      seconds: { type: 'string', default: '10' },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return null;
  }
  if (values['database-url'] === undefined) throw new RangeError('--database-url is required');
  const scenarios = values.scenarios.split(',') as Scenario[];
  if (scenarios.some((scenario) => !SCENARIOS.includes(scenario)))
    throw new RangeError(`--scenarios: some of ${SCENARIOS.join(', ')}`);
  return {
    url: values['database-url'],
    customers: Number(values.customers),
    perCustomer: Number(values['per-customer']),
    changes: Number(values.changes),
    scenarios,
    seconds: Number(values.seconds),
  };
}

const log = (message: string): void => void process.stdout.write(`${message}\n`);

async function main(): Promise<void> {
  const options = parseOptions();
  if (options === null) return;
  const database = await DatabaseService.connect({ url: options.url, pgliteDir: '' });
  await database.migrate();
  await ensureCustomersAndUsers(database, options.customers);
  // From a clean start whatever earlier runs left (deleted subscriptions, their attempts, changes).
  await vacuum(database, WRITTEN_TABLES);
  const mark = await markFeed(database);
  const restoreOnInterrupt = (): void => void restoreFeed(database, mark).finally(() => process.exit(130));
  process.once('SIGINT', restoreOnInterrupt);

  const received = new Map<string, Received>();
  const down = new Set<string>();
  const receiver = await startReceiver(received, down);
  let service: Bench['service'] | null = null;
  try {
    service = await startService({
      url: options.url,
      pgliteDir: null,
      operationsUrl: 'http://127.0.0.1:9',
      env: { WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' },
    });
    const tokens: string[] = [];
    for (let customer = 0; customer < options.customers; customer++)
      tokens.push(await login(service.url, `bench-webhook-${customer}`, PASSWORD));
    const bench: Bench = {
      options,
      database,
      service,
      receiverUrl: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`,
      received,
      down,
      tokens,
    };
    log(`# bench:webhooks on ${options.url}; load average ${loadAverage()}`);
    if (options.scenarios.includes('burst')) await burst(bench);
    if (options.scenarios.includes('backlog')) await backlog(bench);
    if (options.scenarios.includes('requests')) await requests(bench);
    log(`# load average at the end ${loadAverage()}`);
  } finally {
    service?.child.kill('SIGTERM');
    receiver.close();
    process.off('SIGINT', restoreOnInterrupt);
    log(
      `# the ${await restoreFeed(database, mark)} changes recorded here deleted; the feed ends where it did`,
    );
    await vacuum(database, WRITTEN_TABLES);
    await database.close();
  }
}

/** Scenario 1: every customer's burst to every subscription; throughput, lag and CPU per delivery. */
async function burst(bench: Bench): Promise<void> {
  const { options } = bench;
  const subscriptions = await subscribeAll(bench, 'burst');
  const expected = subscriptions.length * options.changes;
  log(
    `## burst: ${subscriptions.length} subscriptions (${options.customers} customers x ${options.perCustomer}), ` +
      `${options.changes} changes per customer, ${expected} deliveries`,
  );
  const before = { service: cpuMillisOf(bench.service.child.pid!), postgres: postgresCpuMillis() };
  const rss = sampleRss(bench.service.child.pid!);
  const committedAt = await recordBurst(bench, 'burst');
  const start = Math.min(...committedAt);
  await waitFor(() => delivered(bench, subscriptions) >= expected, start + TIMEOUT_MS);
  const after = { service: cpuMillisOf(bench.service.child.pid!), postgres: postgresCpuMillis() };
  const peakRss = rss.stop();

  const lags: number[] = [];
  let last = start;
  for (const { path, customer } of subscriptions) {
    for (const arrival of bench.received.get(path)!.arrivals) {
      lags.push(arrival - committedAt[customer]!);
      last = Math.max(last, arrival);
    }
  }
  const count = delivered(bench, subscriptions);
  const seconds = (last - start) / 1000;
  const { outOfOrder, duplicates } = orderOf(bench, subscriptions);
  log(
    `deliveries: ${count} of ${expected} in ${seconds.toFixed(1)} s (${Math.round(count / seconds)}/s sustained); ` +
      `all within 2 min: ${count === expected && seconds <= 120 ? 'yes' : 'no'}; ` +
      `lag p50 ${percentile(lags, 50).toFixed(0)} ms, p99 ${percentile(lags, 99).toFixed(0)} ms; ` +
      `out of order ${outOfOrder}, duplicates ${duplicates}; ` +
      `CPU per delivery: service ${((after.service - before.service) / count).toFixed(2)} ms, ` +
      `PostgreSQL ${((after.postgres - before.postgres) / count).toFixed(2)} ms; ` +
      `service RSS peak ${peakRss.toFixed(0)} MB; load ${loadAverage()}`,
  );
  await unsubscribe(bench, subscriptions);
}

/** Scenario 2: a receiver down during its customer's burst, back after the first failure. */
async function backlog(bench: Bench): Promise<void> {
  const { options } = bench;
  const path = '/backlog/0';
  bench.down.add(path);
  const [subscription] = await subscribe(bench, [{ customer: 0, path }]);
  log(
    `## backlog: one receiver down for a burst of ${options.changes} changes, back after its first failure`,
  );
  await recordChanges(bench.database, 0, options.changes, 'backlog');
  const entry = bench.received.get(path)!;
  await waitFor(() => entry.failures > 0, performance.now() + 30_000);
  bench.down.delete(path);
  const backAt = performance.now();
  await waitFor(() => entry.ids.length >= options.changes, backAt + TIMEOUT_MS);
  const [first, last] = [entry.arrivals[0]!, entry.arrivals.at(-1)!];
  const rate = (entry.arrivals.length - 1) / ((last - first) / 1000);
  const { outOfOrder, duplicates } = orderOf(bench, [subscription!]);
  log(
    `backlog: ${entry.ids.length} of ${options.changes} delivered; the first ${((first - backAt) / 1000).toFixed(1)} s ` +
      `after the receiver was back (the retry schedule's 5 s), then drained at ${Math.round(rate)}/s ` +
      `(>= 200/s: ${rate >= 200 ? 'yes' : 'no'}); in order: ${outOfOrder === 0 ? 'yes' : 'no'}, ` +
      `duplicates ${duplicates}; load ${loadAverage()}`,
  );
  await unsubscribe(bench, [subscription!]);
}

/**
 * Scenario 3: list and feed requests, quiet and while a burst is being delivered, on the same data.
 * The burst is recorded first and its subscriptions start before it, paused for the quiet runs, so
 * only the deliveries differ; quiet and delivering runs alternate (A/B/A/B), as the harness's pairs.
 */
async function requests(bench: Bench): Promise<void> {
  const { options } = bench;
  const driver = startDriver();
  try {
    const list = {
      name: 'list-default',
      path: '/api/processes',
      token: await login(
        bench.service.url,
        BENCH_USERS.largeCustomer.username,
        BENCH_USERS.largeCustomer.password,
      ),
    };
    const feed = {
      name: 'changes-page-100',
      path: '/api/changes?limit=100',
      token: await login(bench.service.url, BENCH_USERS.staff.username, BENCH_USERS.staff.password),
    };
    const drive = (scenario: typeof list, seconds: number) =>
      driver.run({
        url: bench.service.url,
        paths: [scenario.path],
        headers: { authorization: `Bearer ${scenario.token}` },
        connections: CONNECTIONS,
        durationSeconds: seconds,
        serverPid: bench.service.child.pid!,
      });
    log(
      `## requests: ${options.seconds} s each, ${CONNECTIONS} connections, after a warm-up of each; ` +
        `${REQUEST_PAIRS} pairs of quiet and delivering runs, on the same data`,
    );
    const since = new Date(Date.now() - 1000).toISOString();
    await recordBurst(bench, 'requests');
    const subscriptions = await subscribeAll(bench, 'requests', { since });
    await setStatus(bench, subscriptions, 'PAUSED');
    // Both phases measure a warm service: the first quiet run must not pay for the JIT.
    for (const scenario of [list, feed]) await drive(scenario, WARMUP_SECONDS);
    const shares = new Map<string, number[]>([
      [list.name, []],
      [feed.name, []],
    ]);
    for (let pair = 1; pair <= REQUEST_PAIRS; pair++) {
      const quiet = new Map<string, DriveResult>();
      for (const phase of ['quiet', 'delivering'] as const) {
        if (phase === 'delivering') await setStatus(bench, subscriptions, 'ACTIVE');
        for (const scenario of [list, feed]) {
          const deliveredBefore = delivered(bench, subscriptions);
          const result = await drive(scenario, options.seconds);
          const deliveries = delivered(bench, subscriptions) - deliveredBefore;
          const cores = result.serverCpuMs! / (options.seconds * 1000);
          let share = '';
          if (phase === 'quiet') quiet.set(scenario.name, result);
          else {
            const ratio = result.rps / quiet.get(scenario.name)!.rps;
            shares.get(scenario.name)!.push(ratio);
            share = `; ${Math.round(100 * ratio)}% of the quiet req/s`;
          }
          log(
            `pair ${pair} ${phase} ${scenario.name} c=${CONNECTIONS}: ${result.rps.toFixed(0)} req/s, ` +
              `p50 ${result.p50} ms, p99 ${result.p99} ms, errors ${result.errors}, service CPU ${cores.toFixed(2)} cores, ` +
              `${Math.round(deliveries / options.seconds)} deliveries/s${share}`,
          );
        }
        if (phase === 'delivering') await setStatus(bench, subscriptions, 'PAUSED');
      }
    }
    for (const [name, ratios] of shares) {
      log(
        `${name} while delivering: median ${Math.round(100 * median(ratios))}% of quiet ` +
          `(pairs: ${ratios.map((ratio) => `${Math.round(100 * ratio)}%`).join(', ')})`,
      );
    }
    log(
      `still queued at the end: ${subscriptions.length * options.changes - delivered(bench, subscriptions)}`,
    );
    await unsubscribe(bench, subscriptions);
  } finally {
    driver.child.kill();
  }
}

/** Pauses or resumes the subscriptions; a second later, attempts in flight have ended. */
async function setStatus(bench: Bench, subscriptions: Subscription[], status: 'ACTIVE' | 'PAUSED') {
  for (const { id, customer } of subscriptions) {
    const response = await fetch(`${bench.service.url}/api/webhooks/${id}`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${bench.tokens[customer]}`, 'content-type': 'application/json' },
      body: JSON.stringify({ status }),
    });
    if (response.status !== 200) throw new Error(`${status}: ${response.status} ${await response.text()}`);
  }
  await new Promise((resolve) => setTimeout(resolve, 1000));
}

interface Subscription {
  id: string;
  customer: number;
  path: string;
}

function subscribeAll(bench: Bench, prefix: string, from: { since?: string } = {}): Promise<Subscription[]> {
  const wanted = Array.from({ length: bench.options.customers * bench.options.perCustomer }, (_, index) => {
    const customer = Math.floor(index / bench.options.perCustomer);
    return { customer, path: `/${prefix}/${customer}/${index % bench.options.perCustomer}` };
  });
  return subscribe(bench, wanted, from);
}

async function subscribe(
  bench: Bench,
  wanted: Array<{ customer: number; path: string }>,
  from: { since?: string } = {},
): Promise<Subscription[]> {
  const created: Subscription[] = [];
  for (const { customer, path } of wanted) {
    const response = await fetch(`${bench.service.url}/api/webhooks`, {
      method: 'POST',
      headers: { authorization: `Bearer ${bench.tokens[customer]}`, 'content-type': 'application/json' },
      body: JSON.stringify({ url: `${bench.receiverUrl}${path}`, ...from }),
    });
    if (response.status !== 201) throw new Error(`subscribing: ${response.status} ${await response.text()}`);
    created.push({ id: ((await response.json()) as { id: string }).id, customer, path });
    bench.received.set(path, { ids: [], arrivals: [], failures: 0 });
  }
  return created;
}

async function unsubscribe(bench: Bench, subscriptions: Subscription[]): Promise<void> {
  for (const { id, customer } of subscriptions) {
    await fetch(`${bench.service.url}/api/webhooks/${id}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${bench.tokens[customer]}` },
    });
  }
}

function delivered(bench: Bench, subscriptions: Subscription[]): number {
  return subscriptions.reduce((sum, { path }) => sum + bench.received.get(path)!.ids.length, 0);
}

function orderOf(bench: Bench, subscriptions: Subscription[]): { outOfOrder: number; duplicates: number } {
  let outOfOrder = 0;
  let duplicates = 0;
  for (const { path } of subscriptions) {
    const { ids } = bench.received.get(path)!;
    duplicates += ids.length - new Set(ids).size;
    const positions = ids.map((id) => decodeCursor(id) ?? NaN);
    if (positions.some((position, i) => i > 0 && !(position > positions[i - 1]!))) outOfOrder++;
  }
  return { outOfOrder, duplicates };
}

async function waitFor(done: () => boolean, deadline: number): Promise<void> {
  while (!done() && performance.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
}

/** A receiver answering 204 (503 on a path that is down), noting each 2xx's webhook-id and arrival. */
async function startReceiver(received: Map<string, Received>, down: Set<string>): Promise<Server> {
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      const path = request.url ?? '';
      const entry = received.get(path);
      if (down.has(path)) {
        if (entry !== undefined) entry.failures++;
        response.writeHead(503).end();
        return;
      }
      entry?.ids.push(String(request.headers['webhook-id']));
      entry?.arrivals.push(performance.now());
      response.writeHead(204).end();
    });
  });
  // Up to 32 deliveries at once from the service, each on a keep-alive connection.
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}

async function ensureCustomersAndUsers(database: DatabaseService, count: number): Promise<void> {
  await database.db
    .insert(customers)
    .values(
      Array.from({ length: count }, (_, index) => ({ id: `bench-wh-${index}`, name: `Bench ${index}` })),
    )
    .onConflictDoNothing();
  const repository = new UsersRepository(database);
  const hasher = new PasswordHasher();
  for (let index = 0; index < count; index++) {
    const username = `bench-webhook-${index}`;
    if ((await repository.findByUsername(username)) !== null) continue;
    await repository.create({
      username,
      passwordHash: await hasher.hash(PASSWORD),
      role: 'customer',
      customerIds: [`bench-wh-${index}`],
    });
  }
}

/** Every customer's changes, one transaction each, back to back; the instant before each COMMIT. */
async function recordBurst(bench: Bench, tag: string): Promise<number[]> {
  const committedAt: number[] = [];
  for (let customer = 0; customer < bench.options.customers; customer++)
    committedAt.push(await recordChanges(bench.database, customer, bench.options.changes, tag));
  return committedAt;
}

async function recordChanges(
  database: DatabaseService,
  customer: number,
  count: number,
  tag: string,
): Promise<number> {
  const drafts: ChangeDraft[] = Array.from({ length: count }, (_, index) => ({
    customerId: `bench-wh-${customer}`,
    numero: `WH-${tag}-${customer}-${index}`,
    kind: 'PROCESS_UPDATED',
    status: 'IN_TRANSIT',
    updatedAt: new Date().toISOString(),
    details: null,
  }));
  let committedAt = 0;
  await database.db.transaction(async (tx) => {
    await new ChangeRecorder().appendDrafts(tx, drafts);
    committedAt = performance.now();
  });
  return committedAt;
}

/** User + system CPU of every PostgreSQL process on this machine (the server is local). */
function postgresCpuMillis(): number {
  let total = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/comm`, 'utf8').trim() === 'postgres')
        total += cpuMillisOf(Number(entry));
    } catch {
      // The process ended meanwhile.
    }
  }
  return total;
}

function percentile(values: number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
