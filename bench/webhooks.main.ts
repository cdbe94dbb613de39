import 'reflect-metadata';
import type { ChildProcess } from 'node:child_process';
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
import { loadAverage, memoryOf } from './proc-stats.js';
import { login, startService } from './service-process.js';

const USAGE = `Usage: npm run bench:webhooks -- --database-url postgres://... [--subscriptions 100] [--changes 1000]

Boots the service (its own build, as npm run bench does; it migrates the database) with webhooks
allowed to local http receivers, subscribes a local receiver --subscriptions times (10 per staff
user bench-webhook-<n>, created when missing), writes --changes changes in one transaction as
sync's ChangeRecorder does, and measures deliveries per second and each delivery's lag (from just
before COMMIT to its arrival) until every subscription has every change, checking order and
counting duplicates. The subscriptions are deleted afterwards; the changes stay in the feed.`;

const WEBHOOKS_PER_USER = 10;
const USER_PASSWORD = 'bench-webhook-2026';
const TIMEOUT_MS = 300_000;

interface Options {
  url: string;
  subscriptions: number;
  changes: number;
}

/** What the receiver saw for one subscription (its path). */
interface Received {
  ids: string[];
  arrivals: number[];
}

function parseOptions(): Options | null {
  const { values } = parseArgs({
    options: {
      'database-url': { type: 'string' },
      subscriptions: { type: 'string', default: '100' },
      changes: { type: 'string', default: '1000' },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return null;
  }
  if (values['database-url'] === undefined) throw new RangeError('--database-url is required');
  return {
    url: values['database-url'],
    subscriptions: Number(values.subscriptions),
    changes: Number(values.changes),
  };
}

const log = (message: string): void => void process.stdout.write(`${message}\n`);

async function main(): Promise<void> {
  const options = parseOptions();
  if (options === null) return;
  const users = Math.ceil(options.subscriptions / WEBHOOKS_PER_USER);
  const database = await DatabaseService.connect({ url: options.url, pgliteDir: '' });
  await database.migrate();
  await ensureUsers(database, users);

  const received = new Map<string, Received>();
  const receiver = await startReceiver(received);
  let service: { url: string; child: ChildProcess } | null = null;
  try {
    service = await startService({
      url: options.url,
      pgliteDir: null,
      operationsUrl: 'http://127.0.0.1:9',
      env: { WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' },
    });
    const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
    const created: Array<{ id: string; token: string }> = [];
    for (let index = 0; index < options.subscriptions; index++) {
      const token = await login(
        service.url,
        `bench-webhook-${Math.floor(index / WEBHOOKS_PER_USER)}`,
        USER_PASSWORD,
      );
      const response = await fetch(`${service.url}/api/webhooks`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ url: `${receiverUrl}/hooks/${index}` }),
      });
      if (response.status !== 201)
        throw new Error(`subscribing: ${response.status} ${await response.text()}`);
      created.push({ id: ((await response.json()) as { id: string }).id, token });
      received.set(`/hooks/${index}`, { ids: [], arrivals: [] });
    }
    log(`${options.subscriptions} subscriptions over ${users} users; writing ${options.changes} changes`);

    const committedAt = await writeChanges(database, options.changes);
    const expected = options.subscriptions * options.changes;
    const deadline = committedAt + TIMEOUT_MS;
    let peakRss = 0;
    for (;;) {
      peakRss = Math.max(peakRss, memoryOf(service.child.pid!).peakMb);
      const count = [...received.values()].reduce((sum, each) => sum + each.ids.length, 0);
      if (count >= expected || performance.now() > deadline) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    report(options, received, committedAt, peakRss);

    for (const { id, token } of created) {
      await fetch(`${service.url}/api/webhooks/${id}`, {
        method: 'DELETE',
        headers: { authorization: `Bearer ${token}` },
      });
    }
  } finally {
    service?.child.kill('SIGTERM');
    receiver.close();
    await database.close();
  }
}

function report(
  options: Options,
  received: Map<string, Received>,
  committedAt: number,
  peakRss: number,
): void {
  const all = [...received.values()];
  const arrivals = all.flatMap((each) => each.arrivals);
  const lags = arrivals.map((arrival) => arrival - committedAt);
  const last = Math.max(...arrivals);
  const duplicates = all.reduce((sum, each) => sum + each.ids.length - new Set(each.ids).size, 0);
  const outOfOrder = all.filter((each) => {
    const positions = each.ids.map((id) => decodeCursor(id) ?? NaN);
    return positions.some((position, i) => i > 0 && !(position > positions[i - 1]!));
  }).length;
  const complete = all.filter((each) => new Set(each.ids).size === options.changes).length;
  log(
    `deliveries: ${arrivals.length} of ${options.subscriptions * options.changes} in ${((last - committedAt) / 1000).toFixed(1)} s ` +
      `(${Math.round(arrivals.length / ((last - committedAt) / 1000))}/s); ` +
      `lag p50 ${percentile(lags, 50).toFixed(0)} ms, p99 ${percentile(lags, 99).toFixed(0)} ms, max ${Math.max(...lags).toFixed(0)} ms; ` +
      `subscriptions complete ${complete}/${options.subscriptions}, out of order ${outOfOrder}, duplicates ${duplicates}; ` +
      `service RSS peak ${peakRss.toFixed(0)} MB; load ${loadAverage()}`,
  );
}

/** A receiver answering 204 to everything, noting each delivery's webhook-id and arrival per path. */
async function startReceiver(received: Map<string, Received>): Promise<Server> {
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      const entry = received.get(request.url ?? '');
      entry?.ids.push(String(request.headers['webhook-id']));
      entry?.arrivals.push(performance.now());
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}

async function ensureUsers(database: DatabaseService, count: number): Promise<void> {
  const repository = new UsersRepository(database);
  const hasher = new PasswordHasher();
  for (let index = 0; index < count; index++) {
    const username = `bench-webhook-${index}`;
    if ((await repository.findByUsername(username)) !== null) continue;
    await repository.create({
      username,
      passwordHash: await hasher.hash(USER_PASSWORD),
      role: 'staff',
      customerIds: [],
    });
  }
}

/** Writes `count` changes in one transaction; returns the instant just before COMMIT. */
async function writeChanges(database: DatabaseService, count: number): Promise<number> {
  const drafts: ChangeDraft[] = Array.from({ length: count }, (_, index) => ({
    customerId: 'bench-webhooks',
    numero: `IMP-2026-${String(900_000 + index).padStart(6, '0')}`,
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

function percentile(values: number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
