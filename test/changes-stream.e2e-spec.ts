import { connect, type AddressInfo } from 'node:net';
import { JwtService } from '@nestjs/jwt';
import { sql } from 'drizzle-orm';
import { ChangeStreamHub } from '../src/changes/change-stream.hub.js';
import { encodeCursor } from '../src/changes/change-cursor.js';
import { Clock } from '../src/common/clock.js';
import { DAY_MS } from '../src/common/instant.js';
import { rowsOf } from '../src/database/sql-rows.js';
import { OperationsGateway } from '../src/operations/operations.gateway.js';
import type { OperationsProcess } from '../src/operations/operations.types.js';
import { anOperationsProcess } from '../src/testing/operations-process.factory.js';
import { FakeOperationsGateway } from '../src/testing/fake-operations.gateway.js';
import { OffsetClock } from '../src/testing/offset-clock.js';
import { readWholeFeed } from './support/read-whole-feed.js';
import { SseClient } from './support/sse-client.js';
import { syncNow } from './support/sync-now.js';
import { TestApp } from './support/test-app.js';
import { APP_TEST_DATABASE_TARGET } from '../src/testing/test-database.js';
import { waitUntil } from './support/wait-until.js';

interface Change {
  cursor: string;
  kind: string;
  numero: string;
}

const acme = { id: 'acme', name: 'ACME Importadora Ltda' };
const globex = { id: 'globex', name: 'Globex Comércio S.A.' };
const STREAMS_PER_USER = 2;

/** The first `count` events of a stream, each a change whose `id:` is its cursor. */
const changesOf = (client: SseClient, count: number, timeoutMs?: number) =>
  client.waitForEvents(count, timeoutMs).then((events) =>
    events.map((event) => {
      expect(event.event).toBe('change');
      const change = JSON.parse(event.data) as Change;
      expect(event.id).toBe(change.cursor);
      return change;
    }),
  );

const baseUrlOf = async (testApp: TestApp): Promise<string> => {
  await testApp.app.listen(0, '127.0.0.1');
  return `http://127.0.0.1:${(testApp.app.getHttpServer().address() as AddressInfo).port}`;
};

describe.each([APP_TEST_DATABASE_TARGET])('GET /api/changes/stream (%s)', (target) => {
  let testApp: TestApp;
  let gateway: FakeOperationsGateway;
  let baseUrl: string;
  let acmeToken: string;
  let staffToken: string;
  let revision = 0;
  let stalledReaderMs: number;
  let clock: OffsetClock;
  const clients: SseClient[] = [];

  /** A new process of `customer`, or a later revision of `numero`, as the operations system has it. */
  const upstream = (numero: string, customer = acme, changes: Partial<OperationsProcess> = {}) => {
    revision += 1;
    gateway.put(
      anOperationsProcess({
        numero,
        customer,
        customerReference: `PO-${numero}`,
        updatedAt: new Date(Date.UTC(2026, 3, 1, 0, revision)).toISOString(),
        ...changes,
      }),
    );
  };

  const open = async (query = '', headers: Record<string, string> = {}, token = acmeToken) => {
    const client = await SseClient.open(`${baseUrl}/api/changes/stream${query}`, {
      Authorization: `Bearer ${token}`,
      ...headers,
    });
    clients.push(client);
    return client;
  };

  const feed = async (token = acmeToken): Promise<Change[]> => {
    const response = await testApp.http
      .get('/api/changes?limit=500')
      .set('Authorization', `Bearer ${token}`)
      .expect(200);
    return (response.body as { data: Change[] }).data;
  };

  beforeAll(async () => {
    gateway = new FakeOperationsGateway();
    clock = new OffsetClock();
    testApp = await TestApp.start({
      target,
      env: { CHANGES_HEARTBEAT_S: '1', CHANGES_STREAMS_PER_USER: String(STREAMS_PER_USER) },
      override: (builder) =>
        builder.overrideProvider(OperationsGateway).useValue(gateway).overrideProvider(Clock).useValue(clock),
    });
    baseUrl = await baseUrlOf(testApp);
    await testApp.addCustomers(acme, globex);
    await testApp.addUser({ username: 'acme', password: 'acme-pass-1', customerIds: ['acme'] });
    await testApp.addUser({ username: 'operator', password: 'operator-pass-1', role: 'staff' });
    acmeToken = await testApp.login('acme', 'acme-pass-1');
    staffToken = await testApp.login('operator', 'operator-pass-1');
    stalledReaderMs = testApp.config.changes.stalledReaderMs;
  });

  beforeEach(async () => {
    gateway.reset();
    await testApp.forgetSyncedData();
  });

  afterEach(async () => {
    for (const client of clients.splice(0)) client.close();
    // Each test counts its own streams against the per-user limit.
    await waitUntil(() => Promise.resolve(testApp.app.get(ChangeStreamHub).openStreams === 0));
    testApp.config.changes.stalledReaderMs = stalledReaderMs;
    clock.offsetMs = 0;
  });

  afterAll(() => testApp.close());

  it('pushes each change a sync records, as the feed serves it, to the streams that may see it', async () => {
    upstream('IMP-1');
    await syncNow(testApp);
    const acmeStream = await open();
    const staffStream = await open('', {}, staffToken);
    expect(acmeStream.response.status).toBe(200);
    expect(acmeStream.response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(acmeStream.response.headers.get('x-request-id')).toBeTruthy();
    expect(acmeStream.response.headers.get('ratelimit-policy')).toBe('"per-user";q=600;w=60');

    upstream('IMP-2');
    upstream('GLX-1', globex);
    upstream('IMP-1', acme, { status: 'ARRIVED' });
    await syncNow(testApp);

    const pushed = await changesOf(acmeStream, 2);
    // It started at the end of the feed: IMP-1's PROCESS_ADDED came before it.
    expect(pushed.map((change) => `${change.kind} ${change.numero}`)).toEqual([
      'PROCESS_ADDED IMP-2',
      'STATUS_CHANGED IMP-1',
    ]);
    expect(pushed).toEqual((await feed()).slice(1));
    const staffSaw = await changesOf(staffStream, 3);
    expect(staffSaw.map((change) => change.numero)).toEqual(['IMP-2', 'GLX-1', 'IMP-1']);
    // globex's change reached staff but not acme.
    await staffStream.waitForComments(2);
    expect(acmeStream.events).toHaveLength(2);
  });

  it('resumes after Last-Event-ID: replays what it missed, then goes on live, nothing twice or lost', async () => {
    for (let index = 0; index < 5; index += 1) upstream(`IMP-${index}`);
    await syncNow(testApp);
    const [, second] = await feed();

    const resumed = await open('', { 'Last-Event-ID': second?.cursor ?? '' });
    const replayed = await changesOf(resumed, 3);
    upstream('IMP-9');
    await syncNow(testApp);
    const all = await changesOf(resumed, 4);

    expect(replayed.map((change) => change.numero)).toEqual(['IMP-2', 'IMP-3', 'IMP-4']);
    expect(all.map((change) => change.numero)).toEqual(['IMP-2', 'IMP-3', 'IMP-4', 'IMP-9']);
  });

  it('starts after `after` or from `since` in the query, Last-Event-ID winning over both', async () => {
    upstream('IMP-1');
    upstream('IMP-2');
    await syncNow(testApp);
    const [first, second] = await feed();

    const afterFirst = await open(`?after=${first?.cursor}`);
    const sinceStart = await open(`?since=2000-01-01T00:00:00Z`.replace('2000-01-01', todayMinus(1)));
    expect((await changesOf(afterFirst, 1)).map((change) => change.numero)).toEqual(['IMP-2']);
    expect((await changesOf(sinceStart, 2)).map((change) => change.numero)).toEqual(['IMP-1', 'IMP-2']);
    afterFirst.close();
    sinceStart.close();

    const both = await open(`?after=${first?.cursor}`, { 'Last-Event-ID': second?.cursor ?? '' });
    upstream('IMP-3');
    await syncNow(testApp);
    expect((await changesOf(both, 1)).map((change) => change.numero)).toEqual(['IMP-3']);
  });

  it('takes an empty Last-Event-ID as none: `after` in the query decides', async () => {
    upstream('IMP-1');
    upstream('IMP-2');
    await syncNow(testApp);
    const [first] = await feed();

    const stream = await open(`?after=${first?.cursor}`, { 'Last-Event-ID': '' });

    expect((await changesOf(stream, 1)).map((change) => change.numero)).toEqual(['IMP-2']);
  });

  it('answers HEAD with the stream’s headers and no stream', async () => {
    const response = await fetch(`${baseUrl}/api/changes/stream`, {
      method: 'HEAD',
      headers: { Authorization: `Bearer ${acmeToken}` },
    });

    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
  });

  it('sends a comment line while idle', async () => {
    const stream = await open();

    await stream.waitForComments(3, 4000);

    expect(stream.comments).toContain('keep-alive');
    expect(stream.events).toEqual([]);
  });

  it(`allows ${STREAMS_PER_USER} open streams per user, then answers 429 until one closes`, async () => {
    const first = await open();
    await open();

    const refused = await fetch(`${baseUrl}/api/changes/stream`, {
      headers: { Authorization: `Bearer ${acmeToken}` },
    });
    expect(refused.status).toBe(429);
    expect(refused.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(await refused.json()).toMatchObject({ type: '/problems/rate-limited', status: 429 });
    // Another user is not affected.
    expect((await open('', {}, staffToken)).response.status).toBe(200);

    first.close();
    await waitUntil(async () => (await open()).response.status === 200);
  });

  /** An access token of acme's user, and its `exp`, that expires `seconds` after now (or before). */
  const acmeTokenExpiringIn = async (seconds: number) => {
    const jwt = testApp.app.get(JwtService);
    const { sub } = jwt.decode<{ sub: string }>(acmeToken);
    const token = await jwt.signAsync(
      { sub },
      { expiresIn: seconds, header: { alg: 'HS256', typ: 'at+jwt' } },
    );
    return { token, exp: jwt.decode<{ exp: number }>(token).exp };
  };

  it('first asks a reconnecting EventSource to wait 5 s', async () => {
    const stream = await open();

    await stream.waitForComments(1);

    expect(stream.retry).toEqual({ ms: 5000, block: 1 });
  });

  it('when the token expires, sends reauthenticate, without an id, and then closes', async () => {
    const { token, exp } = await acmeTokenExpiringIn(600);
    // The service's clock is 2 s short of the token's `exp` (its issuer's says 10 minutes): time
    // enough for the stream to open on a loaded CI machine, where 200 ms once ran out first (401).
    clock.offsetMs = exp * 1000 - 2_000 - Date.now();

    const stream = await open('', {}, token);
    expect(stream.response.status).toBe(200);
    await stream.waitForClose();

    // No id: the reader's Last-Event-ID stays the last change's, to resume from with a fresh token.
    expect(stream.events).toEqual([
      { id: undefined, event: 'reauthenticate', data: '{"reason":"token-expired"}' },
    ]);
  });

  it('opens only for a token that has not expired, as every route: no leeway, so no 200-then-close loop', async () => {
    const { token: expired } = await acmeTokenExpiringIn(-5);
    const expiredChallenge =
      'Bearer realm="process-lookup", error="invalid_token", error_description="The access token expired"';
    const page = await testApp.http.get('/api/changes').set('Authorization', `Bearer ${expired}`).expect(401);
    expect(page.headers['www-authenticate']).toBe(expiredChallenge);

    const refused = await fetch(`${baseUrl}/api/changes/stream`, {
      headers: { Authorization: `Bearer ${expired}` },
    });

    expect(refused.status).toBe(401);
    expect(refused.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(refused.headers.get('www-authenticate')).toBe(expiredChallenge);
    expect(await refused.json()).toMatchObject({ type: '/problems/unauthorized', status: 401 });
  });

  it('refuses a Last-Event-ID it did not send, one beyond the end of the feed, and a cursor past retention', async () => {
    const malformed = await fetch(`${baseUrl}/api/changes/stream`, {
      headers: { Authorization: `Bearer ${acmeToken}`, 'Last-Event-ID': 'nope' },
    });
    const beyondTheEnd = await fetch(`${baseUrl}/api/changes/stream`, {
      headers: { Authorization: `Bearer ${acmeToken}`, 'Last-Event-ID': encodeCursor(1_000_000) },
    });
    const tooOld = await fetch(`${baseUrl}/api/changes/stream?since=2020-01-01T00:00:00Z`, {
      headers: { Authorization: `Bearer ${acmeToken}` },
    });

    expect(malformed.status).toBe(400);
    expect(await malformed.json()).toMatchObject({
      errors: [{ in: 'header', name: 'Last-Event-ID', message: expect.any(String) }],
    });
    expect(beyondTheEnd.status).toBe(400);
    expect(await beyondTheEnd.json()).toMatchObject({
      errors: [{ in: 'header', name: 'Last-Event-ID', message: expect.stringMatching(/beyond the end/) }],
    });
    expect(tooOld.status).toBe(410);
    expect(await tooOld.json()).toMatchObject({ type: '/problems/cursor-expired' });
  });

  it('disconnects a reader that takes no bytes while its replay waits for it, and frees its slot', async () => {
    testApp.config.changes.stalledReaderMs = 300;
    // More than the kernel's socket buffers hold (a few MiB on loopback), in changes of ~1.5 KiB so
    // that a page of the replay stays under the 1 MiB that counts as fallen behind on its own.
    await rowsOf(
      testApp.database.db,
      sql`WITH added AS (
            INSERT INTO process_changes (position, recorded_at, customer_id, numero, kind, status, updated_at, details)
            SELECT n, now(), 'acme', 'IMP-1', 'PROCESS_UPDATED', 'OPEN', now(),
                   json_build_object('note', repeat('x', 1400))
              FROM generate_series(1, 4500) AS n
            RETURNING position)
          UPDATE change_feed_head SET last_position = (SELECT max(position) FROM added), last_recorded_at = now()`,
    );
    const hub = testApp.app.get(ChangeStreamHub);
    const since = new Date(Date.now() - 3_600_000).toISOString();
    // A client that sends its request and never reads a byte of the answer.
    const reader = connect(Number(new URL(baseUrl).port), '127.0.0.1');
    reader.on('error', () => undefined);
    reader.write(
      `GET /api/changes/stream?since=${since} HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${acmeToken}\r\n\r\n`,
    );
    await waitUntil(() => Promise.resolve(hub.openStreams === 1));

    await waitUntil(() => Promise.resolve(hub.openStreams === 0), 10_000);

    reader.destroy();
    const metrics = await testApp.http.get('/metrics').expect(200);
    expect(metrics.text).toMatch(/change_stream_disconnects_total\{reason="slow-consumer"\} 1/);
    // Its slot is free again: the user can open the limit's worth of streams.
    for (let slot = 0; slot < STREAMS_PER_USER; slot++) expect((await open()).response.status).toBe(200);
  });
});

describe.each([APP_TEST_DATABASE_TARGET])('GET /api/changes/stream at shutdown (%s)', (target) => {
  it('closes every stream when the service shuts down', async () => {
    const testApp = await TestApp.start({ target });
    try {
      const baseUrl = await baseUrlOf(testApp);
      await testApp.addUser({ username: 'operator', password: 'operator-pass-1', role: 'staff' });
      const headers = { Authorization: `Bearer ${await testApp.login('operator', 'operator-pass-1')}` };
      const streams = [
        await SseClient.open(`${baseUrl}/api/changes/stream`, headers),
        await SseClient.open(`${baseUrl}/api/changes/stream`, headers),
      ];

      await testApp.app.close();

      await Promise.all(streams.map((stream) => stream.waitForClose(3000)));
    } finally {
      await testApp.close();
    }
  });
});

const RESTART_SUITE = 'GET /api/changes/stream across a restart of the service (postgres)';
// An in-memory PGlite goes with its instance: only a PostgreSQL database outlives one.
const canRestart = process.env.TEST_DATABASE_URL !== undefined;
if (!canRestart) {
  console.error(
    `${RESTART_SUITE}: SKIPPED, needs TEST_DATABASE_URL (the new instance opens the old one's database)`,
  );
}

interface Reader {
  token: string;
  customerIds: string[] | null;
  stream: SseClient;
  /** What its stream got from the first instance. */
  seen: Change[];
}

(canRestart ? describe : describe.skip)(RESTART_SUITE, () => {
  const gateway = new FakeOperationsGateway();
  const upstreamProcesses = new Map<string, OperationsProcess>();
  /** What each upstream revision should add to the feed, in the order the syncs record them. */
  const recorded: Array<{ customerId: string; change: string }> = [];
  const clients: SseClient[] = [];
  let stopped: TestApp | undefined;
  let restarted: TestApp | undefined;
  let revision = 0;

  /** One revision upstream, a minute after the last, so that sync records it after the others. */
  const publish = (process: OperationsProcess, kind: string) => {
    revision += 1;
    const revised = { ...process, updatedAt: new Date(Date.UTC(2026, 3, 1, 0, revision)).toISOString() };
    upstreamProcesses.set(revised.numero, revised);
    gateway.put(revised);
    recorded.push({ customerId: revised.customer.id, change: `${kind} ${revised.numero}` });
  };
  const add = (numero: string, customer: { id: string; name: string }) =>
    publish(anOperationsProcess({ numero, customer }), 'PROCESS_ADDED');
  const arrive = (numero: string) => {
    const process = upstreamProcesses.get(numero);
    if (process === undefined) throw new Error(`${numero} was never published`);
    publish({ ...process, status: 'ARRIVED' }, 'STATUS_CHANGED');
  };
  const recordedFor = (customerIds: string[] | null) =>
    recorded
      .filter(({ customerId }) => customerIds === null || customerIds.includes(customerId))
      .map(({ change }) => change);

  const startInstance = (sharingDatabaseOf?: TestApp) =>
    TestApp.start({
      target: 'postgres',
      ...(sharingDatabaseOf !== undefined && { sharingDatabaseOf }),
      env: { CHANGES_HEARTBEAT_S: '1' },
      override: (builder) => builder.overrideProvider(OperationsGateway).useValue(gateway),
    });

  const open = async (baseUrl: string, token: string, lastEventId?: string) => {
    const client = await SseClient.open(`${baseUrl}/api/changes/stream`, {
      Authorization: `Bearer ${token}`,
      ...(lastEventId !== undefined && { 'Last-Event-ID': lastEventId }),
    });
    expect(client.response.status).toBe(200);
    clients.push(client);
    return client;
  };

  /** The whole feed as `token`'s user reads it page by page. */
  const wholeFeed = async (testApp: TestApp, token: string): Promise<Change[]> =>
    (await readWholeFeed<Change>(testApp, token, { limit: 100 })).changes;

  afterEach(async () => {
    for (const client of clients.splice(0)) client.close();
    await restarted?.close();
    // Its app is closed already (harmless again); this drops the database both instances used.
    await stopped?.close();
  });

  it('resumes on the new instance after Last-Event-ID: what was missed while down, in order and once, then live', async () => {
    stopped = await startInstance();
    await stopped.addCustomers(acme, globex);
    await stopped.addUser({ username: 'acme', password: 'acme-pass-1', customerIds: ['acme'] });
    await stopped.addUser({ username: 'operator', password: 'operator-pass-1', role: 'staff' });
    const acmeToken = await stopped.login('acme', 'acme-pass-1');
    const staffToken = await stopped.login('operator', 'operator-pass-1');
    const firstUrl = await baseUrlOf(stopped);
    const readers: Reader[] = [
      { token: acmeToken, customerIds: ['acme'], stream: await open(firstUrl, acmeToken), seen: [] },
      { token: staffToken, customerIds: null, stream: await open(firstUrl, staffToken), seen: [] },
    ];
    for (let index = 0; index < 12; index += 1) add(`IMP-${index}`, index % 3 === 0 ? globex : acme);
    await syncNow(stopped);
    for (const reader of readers) {
      reader.seen = await changesOf(reader.stream, recordedFor(reader.customerIds).length);
    }

    await stopped.app.close();
    await Promise.all(readers.map(({ stream }) => stream.waitForClose()));
    restarted = await startInstance(stopped);
    // While no client is connected: more than one replay batch (500) of changes, some of them
    // moving processes the clients saw added.
    for (let index = 12; index < 560; index += 1) {
      add(`IMP-${index}`, index % 3 === 0 ? globex : acme);
      if (index % 100 === 0) arrive(`IMP-${index / 100}`);
    }
    await syncNow(restarted);
    const secondUrl = await baseUrlOf(restarted);
    for (const reader of readers) {
      reader.stream = await open(secondUrl, reader.token, reader.seen.at(-1)?.cursor);
      const missed = recordedFor(reader.customerIds).slice(reader.seen.length);
      const replayed = await changesOf(reader.stream, missed.length, 20_000);
      expect(replayed.map(describeChange)).toEqual(missed);
    }
    add('IMP-560', acme);
    add('IMP-561', globex);
    arrive('IMP-7');
    await syncNow(restarted);

    for (const reader of readers) {
      const history = recordedFor(reader.customerIds);
      const sinceRestart = await changesOf(reader.stream, history.length - reader.seen.length);
      // Two heartbeats after the last change: time for anything extra to have come.
      await reader.stream.waitForComments(reader.stream.comments.length + 2);
      expect(reader.stream.events).toHaveLength(sinceRestart.length);
      expect([...reader.seen, ...sinceRestart].map(describeChange)).toEqual(history);
      // Across the restart the streams served the feed exactly as a page reader gets it.
      expect([...reader.seen, ...sinceRestart]).toEqual(await wholeFeed(restarted, reader.token));
    }
  }, 60_000);
});

const describeChange = (change: Change) => `${change.kind} ${change.numero}`;

function todayMinus(days: number): string {
  return new Date(Date.now() - days * DAY_MS).toISOString().slice(0, 10);
}
