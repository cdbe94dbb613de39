import 'reflect-metadata';
import type { ChildProcess } from 'node:child_process';
import { request, type ClientRequest, type IncomingMessage } from 'node:http';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { PasswordHasher } from '../src/auth/password-hasher.service.js';
import { UsersRepository } from '../src/auth/users/users.repository.js';
import { sql } from 'drizzle-orm';
import { ChangeRecorder } from '../src/changes/change-recorder.js';
import { markFeed, restoreFeed } from './feed-mark.js';
import type { ChangeDraft } from '../src/changes/process-changes.js';
import { DatabaseService } from '../src/database/database.service.js';
import { rowsOf } from '../src/database/sql-rows.js';
import type { ProcessStatus } from '../src/domain/process.vocabulary.js';
import { startSandboxServer } from '../sandbox/src/server/sandbox.server.js';
import { LARGE_CUSTOMER_ID, sandboxOf } from './dataset.js';
import { readDatasetSpec } from './loader.js';
import { loadAverage, memoryOf, sampleRss } from './proc-stats.js';
import { login, startService } from './service-process.js';

const USAGE = `Usage: npm run bench:streams -- --database-url postgres://... [--streams 1000] [--users 10]
        [--changes 200] [--rounds 3]

Boots the service (its own build, as npm run bench does) on a bench database, opens --streams
change streams (GET /api/changes/stream) spread evenly over --users users (half staff, half
customer ${LARGE_CUSTOMER_ID}; created as bench-stream-<n> when missing), then --rounds times writes
--changes changes in one transaction and notifies as sync's ChangeRecorder does, and measures
when each change reaches each stream that may see it (from just before COMMIT) and the service's
RSS. The changes written stay in the feed, as a sync's would.`;

/** The service's ceiling on streams a user may hold (CHANGES_STREAMS_PER_USER). */
const MAX_STREAMS_PER_USER = 100;
const STREAM_USER_PASSWORD = 'bench-stream-2026';
/** How long a round may take to reach every stream before the bench gives up on it. */
const ROUND_TIMEOUT_MS = 30_000;

interface Options {
  url: string;
  streams: number;
  users: number;
  changes: number;
  rounds: number;
}

interface StreamUser {
  username: string;
  staff: boolean;
}

/** One open stream, counting the `change` events it has received and when. */
class StreamReader {
  received = 0;
  ended = false;
  /** Arrival times (performance.now) of changes, for the round being measured. */
  arrivals: number[] = [];
  private tail = '';

  constructor(
    readonly user: StreamUser,
    readonly request: ClientRequest,
    response: IncomingMessage,
  ) {
    response.setEncoding('utf8');
    response.on('data', (chunk: string) => {
      const now = performance.now();
      // Count event lines without parsing the JSON: the reader's own cost stays out of the lag.
      const text = this.tail + chunk;
      let index = text.indexOf('event: change\n');
      while (index !== -1) {
        this.received++;
        this.arrivals.push(now);
        index = text.indexOf('event: change\n', index + 1);
      }
      this.tail = text.slice(-13);
    });
    response.on('close', () => (this.ended = true));
  }
}

function parseOptions(): Options {
  const { values } = parseArgs({
    args: process.argv.slice(2),
    strict: true,
    options: {
      'database-url': { type: 'string' },
      streams: { type: 'string', default: '1000' },
      users: { type: 'string', default: '10' },
      changes: { type: 'string', default: '200' },
      rounds: { type: 'string', default: '3' },
      help: { type: 'boolean' },
    },
  });
  if (values.help === true) {
    process.stdout.write(`${USAGE}\n`);
    process.exit(0);
  }
  if (values['database-url'] === undefined) throw new RangeError('--database-url is required');
  const options = {
    url: values['database-url'],
    streams: Number(values.streams),
    users: Number(values.users),
    changes: Number(values.changes),
    rounds: Number(values.rounds),
  };
  if (options.streams > options.users * MAX_STREAMS_PER_USER) {
    throw new RangeError(
      `at most ${MAX_STREAMS_PER_USER} streams a user: give --users ${Math.ceil(options.streams / MAX_STREAMS_PER_USER)} or more`,
    );
  }
  return options;
}

const log = (message: string): void => void process.stdout.write(`${message}\n`);

async function main(): Promise<void> {
  const options = parseOptions();
  log(`# bench:streams on ${options.url}; load average ${loadAverage()}`);
  const database = await DatabaseService.connect({ url: options.url, pgliteDir: '' });
  const spec = await readDatasetSpec(database);
  if (spec === null) throw new Error('not a bench database: load it with npm run bench:load first');
  await database.migrate();
  const users = await ensureStreamUsers(database, options.users);
  await database.close();

  const simulator = await startSandboxServer({
    apiKey: 'bench-operations-key',
    ...sandboxOf(spec),
  });
  const children: ChildProcess[] = [];
  const readers: StreamReader[] = [];
  // Writes the rounds' changes, as sync's page transactions would.
  const writer = await DatabaseService.connect({ url: options.url, pgliteDir: '' });
  const mark = await markFeed(writer);
  // Interrupted too, the feed goes back to where it was.
  const restoreOnInterrupt = (): void => void restoreFeed(writer, mark).finally(() => process.exit(130));
  process.once('SIGINT', restoreOnInterrupt);
  try {
    const service = await startService({
      url: options.url,
      pgliteDir: null,
      operationsUrl: simulator.url,
      env: { CHANGES_STREAMS_PER_USER: String(MAX_STREAMS_PER_USER) },
    });
    children.push(service.child);
    const pid = service.child.pid!;
    const tokens = new Map<string, string>();
    for (const user of users)
      tokens.set(user.username, await login(service.url, user.username, STREAM_USER_PASSWORD));
    const idleMb = memoryOf(pid).rssMb;

    const opening = sampleRss(pid);
    const openStarted = performance.now();
    for (let i = 0; i < options.streams; i += 50) {
      const batch = Array.from({ length: Math.min(50, options.streams - i) }, (_, j) => {
        const user = users[(i + j) % users.length]!;
        return openStream(service.url, user, tokens.get(user.username)!);
      });
      readers.push(...(await Promise.all(batch)));
    }
    const openMs = performance.now() - openStarted;
    const openPeakMb = opening.stop();
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const openMb = memoryOf(pid).rssMb;
    log(
      `${readers.length} streams open in ${(openMs / 1000).toFixed(1)} s; service RSS ${idleMb.toFixed(0)} MB before, ` +
        `${openMb.toFixed(0)} MB with them open (peak ${openPeakMb.toFixed(0)} MB while opening)`,
    );

    const lags: number[] = [];
    const lastLags: number[] = [];
    const roundPeaks: number[] = [];
    for (let round = 1; round <= options.rounds; round++) {
      for (const reader of readers) reader.arrivals = [];
      const before = readers.map((reader) => reader.received);
      const rss = sampleRss(pid, 20);
      const { committedAt, acme } = await writeChanges(writer, options.changes);
      const expected = readers.map((reader) => (reader.user.staff ? options.changes : acme));
      const deadline = performance.now() + ROUND_TIMEOUT_MS;
      while (
        readers.some((reader, i) => reader.received - before[i]! < expected[i]!) &&
        performance.now() < deadline
      ) {
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
      const peakMb = rss.stop();
      roundPeaks.push(peakMb);
      let missing = 0;
      const roundLags: number[] = [];
      const roundLast: number[] = [];
      for (const [i, reader] of readers.entries()) {
        missing += Math.max(0, expected[i]! - (reader.received - before[i]!));
        for (const arrival of reader.arrivals) roundLags.push(arrival - committedAt);
        if (reader.arrivals.length > 0) roundLast.push(reader.arrivals.at(-1)! - committedAt);
      }
      // A loop, not push(...): a round has over 100,000 deliveries, beyond a call's arguments.
      for (const lag of roundLags) lags.push(lag);
      for (const lag of roundLast) lastLags.push(lag);
      log(
        `round ${round}: ${options.changes} changes (${acme} of ${LARGE_CUSTOMER_ID}), ${roundLags.length} deliveries; ` +
          `lag p50 ${percentile(roundLags, 50).toFixed(0)} ms, p99 ${percentile(roundLags, 99).toFixed(0)} ms, ` +
          `max ${percentile(roundLags, 100).toFixed(0)} ms; last change of a stream p99 ${percentile(roundLast, 99).toFixed(0)} ms; ` +
          `${missing} missing; RSS peak ${peakMb.toFixed(0)} MB (load ${loadAverage()})`,
      );
      await new Promise((resolve) => setTimeout(resolve, 1_000));
    }
    const ended = readers.filter((reader) => reader.ended).length;
    log(
      `\nsummary: ${readers.length} streams over ${users.length} users, ${options.rounds} rounds of ${options.changes} changes: ` +
        `${lags.length} deliveries, lag p50 ${percentile(lags, 50).toFixed(0)} ms, p99 ${percentile(lags, 99).toFixed(0)} ms, ` +
        `max ${percentile(lags, 100).toFixed(0)} ms; a stream's last change p50 ${percentile(lastLags, 50).toFixed(0)} ms, ` +
        `p99 ${percentile(lastLags, 99).toFixed(0)} ms; service RSS ${idleMb.toFixed(0)} MB idle, ${openMb.toFixed(0)} MB ` +
        `with the streams open, ${Math.max(...roundPeaks).toFixed(0)} MB peak while delivering, VmHWM ` +
        `${memoryOf(pid).peakMb.toFixed(0)} MB; ${ended} streams ended early; load average ${loadAverage()}`,
    );
  } finally {
    for (const reader of readers) reader.request.destroy();
    for (const child of children) child.kill('SIGTERM');
    process.off('SIGINT', restoreOnInterrupt);
    log(`# the ${await restoreFeed(writer, mark)} changes recorded here deleted; the feed ends where it did`);
    await writer.close();
    await simulator.close();
  }
}

/** `--users` stream users, half staff and half the large customer's, created when missing. */
async function ensureStreamUsers(database: DatabaseService, count: number): Promise<StreamUser[]> {
  const repository = new UsersRepository(database);
  const users: StreamUser[] = Array.from({ length: count }, (_, i) => ({
    username: `bench-stream-${i + 1}`,
    staff: i % 2 === 0,
  }));
  let hash: string | null = null;
  for (const user of users) {
    if ((await repository.findByUsername(user.username)) !== null) continue;
    hash ??= await new PasswordHasher().hash(STREAM_USER_PASSWORD);
    await repository.create({
      username: user.username,
      passwordHash: hash,
      role: user.staff ? 'staff' : 'customer',
      customerIds: user.staff ? [] : [LARGE_CUSTOMER_ID],
    });
  }
  return users;
}

/** Opens one stream on its own socket and waits for its first bytes (`: stream open`). */
function openStream(url: string, user: StreamUser, token: string): Promise<StreamReader> {
  return new Promise((resolve, reject) => {
    const req = request(
      `${url}/api/changes/stream`,
      { agent: false, headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' } },
      (response) => {
        if (response.statusCode !== 200) {
          reject(new Error(`stream as ${user.username}: ${response.statusCode}`));
          response.resume();
          return;
        }
        const reader = new StreamReader(user, req, response);
        response.once('data', () => resolve(reader));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

/**
 * Writes `count` changes about processes picked at random in one transaction, through the
 * service's own ChangeRecorder (head row moved, rows inserted, `pg_notify` delivered at COMMIT).
 * Returns the instant just before COMMIT (performance.now) and how many are the large customer's.
 */
async function writeChanges(
  database: DatabaseService,
  count: number,
): Promise<{ committedAt: number; acme: number }> {
  const picked = await rowsOf<{
    numero: string;
    customer_id: string;
    status: ProcessStatus;
    updated_at: string;
  }>(
    database.db,
    sql`SELECT numero, customer_id, status, updated_at::text FROM processes TABLESAMPLE SYSTEM (1)
         ORDER BY random() LIMIT ${count}`,
  );
  if (picked.length < count) throw new Error(`only ${picked.length} processes sampled`);
  const drafts: ChangeDraft[] = picked.map((process, i) => ({
    customerId: process.customer_id,
    numero: process.numero,
    kind: i % 2 === 0 ? 'PROCESS_UPDATED' : 'STATUS_CHANGED',
    status: process.status,
    updatedAt: process.updated_at,
    details: i % 2 === 0 ? null : { previousStatus: 'IN_TRANSIT' },
  }));
  let committedAt = 0;
  await database.db.transaction(async (tx) => {
    await new ChangeRecorder().appendDrafts(tx, drafts);
    committedAt = performance.now();
  });
  return { committedAt, acme: drafts.filter((draft) => draft.customerId === LARGE_CUSTOMER_ID).length };
}

function percentile(values: number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

main().catch((error: unknown) => {
  console.error(`bench:streams: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  process.exitCode = 1;
});
