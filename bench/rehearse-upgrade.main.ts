import 'reflect-metadata';
import { execFileSync, fork, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { cpSync, existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, request, type IncomingMessage, type Server } from 'node:http';
import { createServer as createNetServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { Webhook } from 'standardwebhooks';
import { ChangeRecorder } from '../src/changes/change-recorder.js';
import { decodeCursor, encodeCursor } from '../src/changes/change-cursor.js';
import type { ChangeDraft } from '../src/changes/process-changes.js';
import { DatabaseService } from '../src/database/database.service.js';
import { rowsOf } from '../src/database/sql-rows.js';
import type { ProcessStatus } from '../src/domain/process.vocabulary.js';
import { startSandboxServer } from '../sandbox/src/server/sandbox.server.js';
import { BENCH_USERS, LARGE_CUSTOMER_ID, sandboxOf } from './dataset.js';
import { databaseNameOf, ensureDatabase, readDatasetSpec } from './loader.js';
import { startScriptNodeFlags } from './service-process.js';
import { RoundRobinProxy } from './round-robin-proxy.js';
import type { LoadStart, PhaseStats } from './upgrade-load.js';

const USAGE = `Usage: npm run rehearse:upgrade -- --database-url postgres://.../<name with "bench"> [--processes 20000]
        [--changes 0] [--redis-url redis://127.0.0.1:6379] [--port 4100] [--connections 8]
        [--streams 3] [--steady-seconds 15] [--settle-seconds 10]

A rolling upgrade, rehearsed: the release before the newest migration (built from git, as
scripts/expand-contract.sh finds it) runs as two instances behind a round-robin proxy on --port
(instances on the next two ports), on a dataset its own loader loaded (--processes, --changes;
kept in <database>_base and copied for each run), with one sandbox as their operations system and
one Redis. Under steady load (list, detail and feed pages as ${BENCH_USERS.largeCustomer.username}),
--streams change streams that reconnect with Last-Event-ID, a webhook subscription whose receiver
verifies every signature, and changes recorded as sync records them, it runs this checkout's
\`npm run migrate\`, then replaces each instance with this checkout's (SIGTERM, wait for the exit,
start on the same port, wait for /health/ready). It prints what the clients saw.`;

/** This file runs from <bench build>/bench/. */
const BUILD = join(dirname(fileURLToPath(import.meta.url)), '..');
const ROOT = process.cwd();
const CACHE = join(tmpdir(), 'process-lookup-rehearsal');
/** Changes recorded every {@link WRITE_EVERY_MS}, as sync records a pass's. */
const CHANGES_PER_WRITE = 10;
const WRITE_EVERY_MS = 250;
/** How long streams and webhooks have to catch up with the feed once the writes stop. */
const CATCH_UP_MS = 120_000;

interface Options {
  url: string;
  processes: number;
  changes: number;
  redisUrl: string;
  port: number;
  connections: number;
  streams: number;
  steadySeconds: number;
  settleSeconds: number;
}

const started = performance.now();
/** Each line with the seconds since the rehearsal started. */
const log = (message: string): void =>
  void process.stdout.write(
    `[${((performance.now() - started) / 1000).toFixed(1).padStart(6)} s] ${message}\n`,
  );
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

function parseOptions(): Options {
  const { values } = parseArgs({
    args: process.argv.slice(2),
    strict: true,
    options: {
      'database-url': { type: 'string' },
      processes: { type: 'string', default: '20000' },
      changes: { type: 'string', default: '0' },
      'redis-url': { type: 'string', default: 'redis://127.0.0.1:6379' },
      port: { type: 'string', default: '4100' },
      connections: { type: 'string', default: '8' },
      streams: { type: 'string', default: '3' },
      'steady-seconds': { type: 'string', default: '15' },
      'settle-seconds': { type: 'string', default: '10' },
      help: { type: 'boolean' },
    },
  });
  if (values.help === true) {
    log(USAGE);
    process.exit(0);
  }
  const url = values['database-url'];
  if (url === undefined) throw new RangeError('--database-url is required');
  if (!databaseNameOf(url).includes('bench')) {
    throw new RangeError(`refusing to replace "${databaseNameOf(url)}": its name lacks "bench"`);
  }
  return {
    url,
    processes: Number(values.processes),
    changes: Number(values.changes),
    redisUrl: values['redis-url'],
    port: Number(values.port),
    connections: Number(values.connections),
    streams: Number(values.streams),
    steadySeconds: Number(values['steady-seconds']),
    settleSeconds: Number(values['settle-seconds']),
  };
}

/** The commit before the newest migration, as scripts/expand-contract.sh finds it. */
function previousRelease(): string {
  const git = (...args: string[]): string => execFileSync('git', args, { encoding: 'utf8' }).trim();
  // A glob that stops at the folder: an online step (migrations/online/) is no migration of its own.
  const newest = git('log', '-1', '--format=%H', '--diff-filter=A', '--', ':(glob)migrations/*.sql');
  if (newest === '') throw new Error('no migration in this clone’s history');
  return git('rev-parse', `${newest}^`);
}

/**
 * The previous release's service and bench loader, built once per commit into a worktree of its
 * own (this checkout's node_modules, as expand-contract.sh does): the loader compiled beside it,
 * not by its bench/build.mjs, which would replace this checkout's bench build under a run.
 */
function buildPrevious(commit: string): string {
  const directory = join(CACHE, `previous-${commit.slice(0, 12)}`);
  const built = join(directory, '.rehearsal-built');
  if (existsSync(built)) return directory;
  mkdirSync(CACHE, { recursive: true });
  if (!existsSync(directory))
    execFileSync('git', ['worktree', 'add', '--detach', '--force', directory, commit]);
  if (!existsSync(join(directory, 'node_modules')))
    symlinkSync(join(ROOT, 'node_modules'), join(directory, 'node_modules'));
  const node = (...args: string[]): void =>
    void execFileSync(process.execPath, args, { cwd: directory, stdio: 'inherit' });
  log(`building the previous release ${commit.slice(0, 12)} in ${directory}`);
  node('node_modules/@nestjs/cli/bin/nest.js', 'build');
  node('node_modules/typescript/bin/tsc', '-p', 'bench/tsconfig.json', '--outDir', '.bench-build');
  cpSync(join(directory, 'migrations'), join(directory, '.bench-build/migrations'), { recursive: true });
  writeFileSync(built, `${new Date().toISOString()}\n`);
  return directory;
}

function withDatabase(url: string, name: string): string {
  const other = new URL(url);
  other.pathname = `/${name}`;
  return other.toString();
}

async function admin<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: withDatabase(url, 'postgres') });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/**
 * The dataset as the previous release's loader leaves it, in `<name>_base` (loaded when missing,
 * of another size, or migrated past the previous release), copied to `<name>` for this run.
 */
async function prepareDatabase(options: Options, previousDir: string): Promise<void> {
  const name = databaseNameOf(options.url);
  const baseUrl = withDatabase(options.url, `${name}_base`);
  await ensureDatabase(baseUrl);
  const base = await DatabaseService.connect({ url: baseUrl, pgliteDir: '' });
  let reusable = false;
  try {
    const spec = await readDatasetSpec(base);
    const [applied] = await rowsOf<{ last: string | null }>(
      base.db,
      sql`SELECT max(created_at)::text AS last FROM drizzle.__drizzle_migrations`,
    ).catch(() => [{ last: null }]);
    const journal = JSON.parse(readFileSync(join(previousDir, 'migrations/meta/_journal.json'), 'utf8')) as {
      entries: Array<{ when: number }>;
    };
    reusable =
      spec?.processCount === options.processes && Number(applied?.last) === journal.entries.at(-1)!.when;
  } finally {
    await base.close();
  }
  if (!reusable) {
    log(`loading ${options.processes} processes with the previous release's loader into ${name}_base`);
    execFileSync(
      process.execPath,
      [
        '.bench-build/bench/load.main.js',
        '--processes',
        String(options.processes),
        '--changes',
        String(options.changes),
        '--database-url',
        baseUrl,
      ],
      { cwd: previousDir, stdio: 'inherit' },
    );
  }
  await admin(options.url, async (client) => {
    await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await client.query(`CREATE DATABASE "${name}" TEMPLATE "${name}_base"`);
  });
}

interface Instance {
  port: number;
  release: 'previous' | 'head';
  child: ChildProcess;
}

/** One instance as production runs it, on `port`, ready when `/health/ready` answers 200. */
async function startInstance(
  release: 'previous' | 'head',
  directory: string,
  port: number,
  env: NodeJS.ProcessEnv,
): Promise<Instance> {
  // A process left on the port (an earlier run's) would answer in this one's place.
  const probe = createNetServer();
  await new Promise<void>((resolve, reject) => {
    probe.once('error', () => reject(new Error(`port ${port} is in use: stop what listens there first`)));
    probe.listen(port, () => probe.close(() => resolve()));
  });
  const main = release === 'head' ? join(BUILD, 'src/main.js') : join(directory, 'dist/main.js');
  const child = spawn(process.execPath, [...startScriptNodeFlags(directory), main], {
    cwd: directory,
    env: { ...env, PORT: String(port) },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  for (let attempt = 0; attempt < 1200; attempt++) {
    if (child.exitCode !== null)
      throw new Error(`the ${release} instance on ${port} exited with ${child.exitCode}`);
    try {
      const response = await fetch(`http://127.0.0.1:${port}/health/ready`);
      await response.arrayBuffer();
      if (response.status === 200) return { port, release, child };
    } catch {
      // Not listening yet.
    }
    await sleep(100);
  }
  child.kill();
  throw new Error(`the ${release} instance on ${port} was not ready within 120 s`);
}

async function stopInstance(instance: Instance): Promise<void> {
  if (instance.child.exitCode !== null || instance.child.signalCode !== null) return;
  const exited = once(instance.child, 'exit');
  instance.child.kill('SIGTERM');
  await exited;
}

/** A change stream that reconnects at once with Last-Event-ID whenever it ends, noting every id. */
class Stream {
  readonly positions: number[] = [];
  reconnections = 0;
  private last: string | null = null;
  private current: ReturnType<typeof request> | null = null;
  private stopped = false;

  constructor(
    private readonly url: string,
    private readonly token: string,
  ) {}

  async open(): Promise<void> {
    await new Promise<void>((resolve) => this.connect(resolve));
  }

  close(): void {
    this.stopped = true;
    this.current?.destroy();
  }

  private connect(onOpen?: () => void): void {
    const headers: Record<string, string> = {
      authorization: `Bearer ${this.token}`,
      accept: 'text/event-stream',
      ...(this.last !== null && { 'last-event-id': this.last }),
    };
    const again = (): void => {
      if (this.stopped) return;
      this.reconnections++;
      setTimeout(() => this.connect(), 50);
    };
    const req = request(`${this.url}/api/changes/stream`, { headers }, (response: IncomingMessage) => {
      if (response.statusCode !== 200) {
        response.resume();
        response.on('end', again);
        return;
      }
      onOpen?.();
      response.setEncoding('utf8');
      let buffer = '';
      response.on('data', (chunk: string) => {
        buffer += chunk;
        let end = buffer.indexOf('\n\n');
        while (end !== -1) {
          this.take(buffer.slice(0, end));
          buffer = buffer.slice(end + 2);
          end = buffer.indexOf('\n\n');
        }
      });
      response.on('close', again);
    });
    req.on('error', () => {
      if (req.destroyed && this.stopped) return;
      again();
    });
    req.end();
    this.current = req;
  }

  private take(event: string): void {
    const lines = event.split('\n');
    if (!lines.includes('event: change')) return;
    const id = lines.find((line) => line.startsWith('id: '))?.slice(4);
    if (id === undefined) return;
    this.last = id;
    this.positions.push(decodeCursor(id) ?? NaN);
  }
}

/** The webhook receiver: verifies each delivery's signature, notes its position in arrival order. */
async function startReceiver(port: number, secret: () => string | null) {
  const received = { positions: [] as number[], badSignatures: 0 };
  const server: Server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      const key = secret();
      try {
        if (key === null) throw new Error('no secret yet');
        new Webhook(key).verify(body, req.headers as Record<string, string>);
        received.positions.push(decodeCursor(String(req.headers['webhook-id'])) ?? NaN);
      } catch {
        received.badSignatures++;
      }
      res.writeHead(204).end();
    });
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return { server, received };
}

/** Changes recorded as sync records them (the processes touched, the feed appended, NOTIFY at commit). */
function startWriter(database: DatabaseService, processes: number) {
  const stats = { written: 0, longestMs: 0, failures: 0 };
  // About 2,000 rows sampled to pick from, whatever the dataset's size.
  const percent = Math.min(100, Math.max(0.1, (100 * 2000) / processes));
  let running = true;
  const done = (async () => {
    while (running) {
      const started = performance.now();
      try {
        const picked = await rowsOf<{
          numero: string;
          customer_id: string;
          status: ProcessStatus;
          updated_at: string;
        }>(
          database.db,
          sql`SELECT numero, customer_id, status, updated_at::text
                FROM processes TABLESAMPLE SYSTEM (${sql.raw(String(percent))})
               ORDER BY random() LIMIT ${CHANGES_PER_WRITE}`,
        );
        if (picked.length === 0) continue;
        const drafts: ChangeDraft[] = picked.map((process) => ({
          customerId: process.customer_id,
          numero: process.numero,
          kind: 'PROCESS_UPDATED',
          status: process.status,
          updatedAt: process.updated_at,
          details: null,
        }));
        const writeStarted = performance.now();
        await database.db.transaction(async (tx) => {
          await tx.execute(
            sql`UPDATE processes SET synced_at = now() WHERE numero IN (${sql.join(
              picked.map((process) => sql`${process.numero}`),
              sql`, `,
            )})`,
          );
          await new ChangeRecorder().appendDrafts(tx, drafts);
        });
        stats.longestMs = Math.max(stats.longestMs, performance.now() - writeStarted);
        stats.written += drafts.length;
      } catch (error) {
        stats.failures++;
        log(`  write failed: ${error instanceof Error ? error.message : String(error)}`);
      }
      await sleep(Math.max(0, WRITE_EVERY_MS - (performance.now() - started)));
    }
  })();
  return {
    stats,
    stop: async () => {
      running = false;
      await done;
    },
  };
}

/** The load generator in its own process; `stop` resolves with each phase's figures. */
function startLoad(start: Omit<LoadStart, 'kind'>) {
  const child = fork(join(BUILD, 'bench/upgrade-load.js'), [], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  child.send({ kind: 'start', ...start } satisfies LoadStart);
  return {
    phase: (phase: string) => child.send({ kind: 'phase', phase }),
    stop: async (): Promise<PhaseStats[]> => {
      const result = once(child, 'message') as Promise<[PhaseStats[]]>;
      child.send({ kind: 'stop' });
      const [stats] = await result;
      child.disconnect();
      return stats;
    },
  };
}

/** What a client that saw `positions` missed of `expected`, and whether it saw them in order. */
function compare(positions: number[], expected: number[]) {
  const seen = new Set(positions);
  const missing = expected.filter((position) => !seen.has(position));
  return {
    received: seen.size,
    missing: missing.length,
    firstMissing: missing.slice(0, 5),
    // At least once: a delivery cut short by a shutdown comes again, with its webhook-id.
    duplicates: positions.length - seen.size,
    /** Arrived after a later position, the first time it arrived. */
    outOfOrder: positions.filter(
      (position, i) =>
        positions.indexOf(position) === i && positions.slice(0, i).some((earlier) => earlier > position),
    ).length,
  };
}

async function main(): Promise<void> {
  const options = parseOptions();
  const previous = previousRelease();
  const previousDir = buildPrevious(previous);
  await prepareDatabase(options, previousDir);
  const database = await DatabaseService.connect({ url: options.url, pgliteDir: '' });
  const spec = await readDatasetSpec(database);
  if (spec === null) throw new Error('the copied database holds no bench dataset');

  const [proxyPort, firstPort, secondPort, sandboxPort, receiverPort] = [0, 1, 2, 3, 4].map(
    (offset) => options.port + offset,
  ) as [number, number, number, number, number];
  const sandbox = await startSandboxServer({
    apiKey: 'bench-operations-key',
    port: sandboxPort,
    host: '127.0.0.1',
    ...sandboxOf(spec),
  });
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    NODE_ENV: 'production',
    DATABASE_URL: options.url,
    REDIS_URL: options.redisUrl,
    JWT_SECRET: randomBytes(48).toString('base64url'),
    OPERATIONS_BASE_URL: sandbox.url,
    OPERATIONS_API_KEY: 'bench-operations-key',
    SYNC_INTERVAL_S: '0',
    // Errors only: the proxy's readiness probes of a draining instance would fill the output.
    LOG_LEVEL: 'error',
    PORTAL_ENABLED: 'false',
    RATE_LIMIT_PER_USER_PER_MINUTE: '1000000',
    WEBHOOK_ALLOW_HTTP: 'true',
    WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
  };
  let secret: string | null = null;
  const receiver = await startReceiver(receiverPort, () => secret);
  const instances: Instance[] = [];
  const streams: Stream[] = [];
  // Interrupted, the rehearsal takes its instances with it rather than leave them on their ports.
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      for (const instance of instances) instance.child.kill('SIGKILL');
      process.exit(130);
    });
  }
  let proxy: RoundRobinProxy | null = null;
  try {
    for (const port of [firstPort, secondPort]) {
      instances.push(await startInstance('previous', previousDir, port, env));
    }
    proxy = await RoundRobinProxy.start(proxyPort, [firstPort, secondPort]);
    const url = `http://127.0.0.1:${proxyPort}`;
    log(
      `previous release ${previous.slice(0, 12)}: two instances on ${firstPort} and ${secondPort}, behind ${url}`,
    );

    const { username, password } = BENCH_USERS.largeCustomer;
    const login = await fetch(`${url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username, password }),
    });
    if (login.status !== 200) throw new Error(`login: ${login.status} ${await login.text()}`);
    const token = ((await login.json()) as { accessToken: string }).accessToken;
    const headers = { authorization: `Bearer ${token}` };

    const [feedHead] = await rowsOf<{ position: string }>(
      database.db,
      sql`SELECT last_position::text AS position FROM change_feed_head`,
    );
    const startPosition = Number(feedHead?.position ?? 0);
    const subscribed = await fetch(`${url}/api/webhooks`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ url: `http://127.0.0.1:${receiverPort}/hook` }),
    });
    if (subscribed.status !== 201)
      throw new Error(`subscribing: ${subscribed.status} ${await subscribed.text()}`);
    secret = ((await subscribed.json()) as { secret: string }).secret;
    for (let i = 0; i < options.streams; i++) {
      const stream = new Stream(url, token);
      await stream.open();
      streams.push(stream);
    }

    const numeros = await rowsOf<{ numero: string }>(
      database.db,
      sql`SELECT numero FROM processes WHERE customer_id = ${LARGE_CUSTOMER_ID} ORDER BY numero LIMIT 200`,
    );
    const feedFrom = encodeCursor(Math.max(0, startPosition - 1000));
    const paths = numeros.flatMap(({ numero }, i) => [
      i % 2 === 0 ? '/api/processes?pageSize=20' : '/api/processes?status=IN_TRANSIT&pageSize=20',
      `/api/processes/${numero}`,
      i % 4 === 0 ? '/api/changes?limit=100' : `/api/changes?after=${feedFrom}&limit=100`,
    ]);
    const writer = startWriter(database, spec.processCount);
    const load = startLoad({ url, paths, headers, connections: options.connections });
    log(
      `steady load for ${options.steadySeconds} s: ${options.connections} connections, ${options.streams} streams, one webhook subscription, ${(1000 / WRITE_EVERY_MS) * CHANGES_PER_WRITE} changes/s`,
    );
    await sleep(options.steadySeconds * 1000);

    load.phase('upgrade');
    const upgradeStarted = performance.now();
    log('npm run migrate (this checkout)');
    const migrate = spawn(process.execPath, [join(BUILD, 'src/cli/migrate.js')], {
      cwd: ROOT,
      env: { ...env, LOG_LEVEL: 'info' },
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    const exited = once(migrate, 'exit') as Promise<[number | null]>;
    // The transaction's commit, seen from outside: drizzle's bookkeeping gains its rows.
    const applied = async (): Promise<number> =>
      (
        await rowsOf<{ count: number }>(
          database.db,
          sql`SELECT count(*)::int AS count FROM drizzle.__drizzle_migrations`,
        )
      )[0]!.count;
    const appliedBefore = await applied();
    let committedMs: number | null = null;
    while (committedMs === null && migrate.exitCode === null) {
      if ((await applied()) > appliedBefore) committedMs = performance.now() - upgradeStarted;
      else await sleep(100);
    }
    const [code] = await exited;
    if (code !== 0) throw new Error(`migrate exited with ${code}`);
    const migratedMs = performance.now() - upgradeStarted;
    log(
      `  migrated in ${(migratedMs / 1000).toFixed(1)} s: its transaction committed after ` +
        `${((committedMs ?? migratedMs) / 1000).toFixed(1)} s, then the online steps`,
    );
    for (const [i, instance] of instances.entries()) {
      const stopping = performance.now();
      await stopInstance(instance);
      const stoppedMs = performance.now() - stopping;
      instances[i] = await startInstance('head', ROOT, instance.port, env);
      log(
        `  ${instance.port}: previous stopped in ${(stoppedMs / 1000).toFixed(1)} s, head ready ${((performance.now() - stopping - stoppedMs) / 1000).toFixed(1)} s later`,
      );
    }
    const upgradeMs = performance.now() - upgradeStarted;
    load.phase('after');
    await sleep(options.settleSeconds * 1000);
    const phases = await load.stop();
    await writer.stop();

    const [last] = await rowsOf<{ position: string }>(
      database.db,
      sql`SELECT last_position::text AS position FROM change_feed_head`,
    );
    const lastPosition = Number(last?.position);
    const expected = (
      await rowsOf<{ position: string }>(
        database.db,
        sql`SELECT position::text FROM process_changes
             WHERE customer_id = ${LARGE_CUSTOMER_ID} AND position > ${startPosition} AND position <= ${lastPosition}
             ORDER BY position`,
      )
    ).map((row) => Number(row.position));
    const caughtUp = (positions: number[]): boolean => compare(positions, expected).missing === 0;
    const catchUpStarted = performance.now();
    const deadline = catchUpStarted + CATCH_UP_MS;
    while (
      performance.now() < deadline &&
      !(caughtUp(receiver.received.positions) && streams.every((stream) => caughtUp(stream.positions)))
    ) {
      await sleep(200);
    }

    const catchUpMs = performance.now() - catchUpStarted;

    const all = phases.reduce(
      (sum, phase) => ({
        sent: sum.sent + phase.sent,
        refused: sum.refused + phase.refused,
        errors: sum.errors + Object.values(phase.errors).reduce((a, b) => a + b, 0),
        resets: sum.resets + (phase.errors.ECONNRESET ?? 0),
        max: Math.max(sum.max, phase.max),
      }),
      { sent: 0, refused: 0, errors: 0, resets: 0, max: 0 },
    );
    const upgrade = phases.find((phase) => phase.phase === 'upgrade')!;
    log('');
    log(
      `# rolling upgrade: ${spec.processCount} processes, previous release ${previous.slice(0, 12)} → this checkout`,
    );
    log(
      `requests sent: ${all.sent}; failed: ${all.refused + all.errors} (${all.refused} non-2xx/304, ${all.errors} transport errors); connection resets: ${all.resets}`,
    );
    for (const phase of phases) {
      log(
        `  ${phase.phase.padEnd(8)} ${String(phase.sent).padStart(7)} sent, p50 ${phase.p50.toFixed(0)} ms, p99 ${phase.p99.toFixed(0)} ms, ` +
          `max ${phase.max.toFixed(0)} ms; refused ${phase.refused} ${JSON.stringify(phase.statuses)}; errors ${JSON.stringify(phase.errors)}`,
      );
    }
    log(
      `p99 during the upgrade: ${upgrade.p99.toFixed(0)} ms; longest any request waited: ${all.max.toFixed(0)} ms`,
    );
    log(
      `migrate: ${(migratedMs / 1000).toFixed(1)} s; from migrate start to every instance on this checkout: ${(upgradeMs / 1000).toFixed(1)} s`,
    );
    log(
      `streams and webhooks caught up with the feed ${(catchUpMs / 1000).toFixed(1)} s after the writes stopped (${CATCH_UP_MS / 1000} s at most)`,
    );
    log(
      `changes recorded meanwhile: ${writer.stats.written} (${expected.length} of ${LARGE_CUSTOMER_ID}); longest write transaction ${writer.stats.longestMs.toFixed(0)} ms; failed writes ${writer.stats.failures}`,
    );
    for (const [i, stream] of streams.entries()) {
      const seen = compare(stream.positions, expected);
      log(
        `stream ${i + 1}: ${seen.received}/${expected.length} changes, ${stream.reconnections} reconnections (Last-Event-ID); ` +
          `${seen.missing} missing ${JSON.stringify(seen.firstMissing)}, ${seen.duplicates} duplicates, ${seen.outOfOrder} out of order: ${seen.missing + seen.duplicates + seen.outOfOrder === 0 ? 'no gap' : 'GAP'}`,
      );
    }
    const hooks = compare(receiver.received.positions, expected);
    log(
      `webhooks: ${hooks.received}/${expected.length} delivered, ${hooks.missing} lost ${JSON.stringify(hooks.firstMissing)}, ${hooks.duplicates} duplicates, ` +
        `${hooks.outOfOrder} out of order, ${receiver.received.badSignatures} bad signatures: ` +
        `${hooks.missing + hooks.outOfOrder + receiver.received.badSignatures === 0 ? 'in order, none lost' : 'NOT in order or lost'}` +
        ` (${hooks.duplicates} sent again, as at-least-once allows)`,
    );
    log(
      `proxy: ${proxy.placedBlind} connections placed while no instance was ready, ${proxy.unplaced} refused by every instance`,
    );
  } finally {
    for (const stream of streams) stream.close();
    await proxy?.close();
    await Promise.all(instances.map((instance) => stopInstance(instance)));
    receiver.server.close();
    receiver.server.closeAllConnections();
    await sandbox.close();
    await database.close();
  }
}

main().then(
  // A connection a stopped instance left half-open must not keep the rehearsal alive.
  () => process.exit(),
  (error: unknown) => {
    console.error(
      `rehearse:upgrade: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
    );
    process.exit(1);
  },
);
