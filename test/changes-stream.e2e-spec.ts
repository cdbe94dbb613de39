import type { AddressInfo } from 'node:net';
import { JwtService } from '@nestjs/jwt';
import { DAY_MS } from '../src/common/instant.js';
import { OperationsGateway } from '../src/operations/operations.gateway.js';
import type { OperationsProcess } from '../src/operations/operations.types.js';
import { anOperationsProcess } from './factories/operations-process.factory.js';
import { FakeOperationsGateway } from './fakes/fake-operations.gateway.js';
import { SseClient } from './support/sse-client.js';
import { syncNow } from './support/sync-now.js';
import { TestApp } from './support/test-app.js';
import { TEST_DATABASE_TARGETS } from './support/test-database.js';
import { waitUntil } from './support/wait-until.js';

interface Change {
  cursor: string;
  kind: string;
  numero: string;
}

const acme = { id: 'acme', name: 'ACME Importadora Ltda' };
const globex = { id: 'globex', name: 'Globex Comércio S.A.' };
const STREAMS_PER_USER = 2;

describe.each(TEST_DATABASE_TARGETS)('GET /api/changes/stream (%s)', (target) => {
  let testApp: TestApp;
  let gateway: FakeOperationsGateway;
  let baseUrl: string;
  let acmeToken: string;
  let staffToken: string;
  let revision = 0;
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

  const changesOf = (client: SseClient, count: number) =>
    client.waitForEvents(count).then((events) =>
      events.map((event) => {
        expect(event.event).toBe('change');
        const change = JSON.parse(event.data) as Change;
        expect(event.id).toBe(change.cursor);
        return change;
      }),
    );

  beforeEach(async () => {
    gateway = new FakeOperationsGateway();
    testApp = await TestApp.start({
      target,
      env: { CHANGES_HEARTBEAT_S: '1', CHANGES_STREAMS_PER_USER: String(STREAMS_PER_USER) },
      override: (builder) => builder.overrideProvider(OperationsGateway).useValue(gateway),
    });
    await testApp.app.listen(0, '127.0.0.1');
    baseUrl = `http://127.0.0.1:${(testApp.app.getHttpServer().address() as AddressInfo).port}`;
    await testApp.addCustomers(acme, globex);
    await testApp.addUser({ username: 'acme', password: 'acme-pass-1', customerIds: ['acme'] });
    await testApp.addUser({ username: 'operator', password: 'operator-pass-1', role: 'staff' });
    acmeToken = await testApp.login('acme', 'acme-pass-1');
    staffToken = await testApp.login('operator', 'operator-pass-1');
  });

  afterEach(async () => {
    for (const client of clients.splice(0)) client.close();
    await testApp.close();
  });

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

  it('closes when the token expires', async () => {
    const jwt = testApp.app.get(JwtService);
    const { sub } = jwt.decode<{ sub: string }>(acmeToken);
    const shortLived = await jwt.signAsync(
      { sub },
      { expiresIn: 2, header: { alg: 'HS256', typ: 'at+jwt' } },
    );
    const stream = await open('', {}, shortLived);
    expect(stream.response.status).toBe(200);

    await stream.waitForClose(5000);

    expect(stream.isClosed).toBe(true);
  });

  it('refuses a Last-Event-ID it did not send, and a cursor past retention', async () => {
    const malformed = await fetch(`${baseUrl}/api/changes/stream`, {
      headers: { Authorization: `Bearer ${acmeToken}`, 'Last-Event-ID': 'nope' },
    });
    const tooOld = await fetch(`${baseUrl}/api/changes/stream?since=2020-01-01T00:00:00Z`, {
      headers: { Authorization: `Bearer ${acmeToken}` },
    });

    expect(malformed.status).toBe(400);
    expect(await malformed.json()).toMatchObject({
      errors: [{ in: 'header', name: 'Last-Event-ID', message: expect.any(String) }],
    });
    expect(tooOld.status).toBe(410);
    expect(await tooOld.json()).toMatchObject({ type: '/problems/cursor-expired' });
  });

  it('closes every stream when the service shuts down', async () => {
    const streams = [await open(), await open('', {}, staffToken)];

    await testApp.app.close();

    await Promise.all(streams.map((stream) => stream.waitForClose(3000)));
    // afterEach closes it again: harmless.
  });
});

function todayMinus(days: number): string {
  return new Date(Date.now() - days * DAY_MS).toISOString().slice(0, 10);
}
