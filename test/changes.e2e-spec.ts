import { sql } from 'drizzle-orm';
import { encodeCursor } from '../src/changes/change-cursor.js';
import { ChangeRetention } from '../src/changes/change-retention.js';
import { OperationsGateway } from '../src/operations/operations.gateway.js';
import type { OperationsProcess } from '../src/operations/operations.types.js';
import { anEvent, anOperationsProcess } from '../src/testing/operations-process.factory.js';
import { FakeOperationsGateway } from '../src/testing/fake-operations.gateway.js';
import { readWholeFeed } from './support/read-whole-feed.js';
import { syncNow } from './support/sync-now.js';
import { TestApp } from './support/test-app.js';
import { APP_TEST_DATABASE_TARGET } from '../src/testing/test-database.js';

interface Change {
  cursor: string;
  recordedAt: string;
  kind: string;
  numero: string;
  status: string;
  updatedAt: string;
  previousStatus?: string;
  follow?: { id: string; description: string };
  customsChannel?: string | null;
}

interface ChangesPage {
  data: Change[];
  next: string;
  hasMore: boolean;
}

const acme = { id: 'acme', name: 'ACME Importadora Ltda' };
const globex = { id: 'globex', name: 'Globex Comércio S.A.' };

describe.each([APP_TEST_DATABASE_TARGET])('GET /api/changes (%s)', (target) => {
  let testApp: TestApp;
  let gateway: FakeOperationsGateway;
  let acmeToken: string;
  let staffToken: string;
  /** Every process gets a later `updatedAt` at each revision, as the operations system does. */
  let clockMinute = 0;

  const revised = (process: OperationsProcess, changes: Partial<OperationsProcess>): OperationsProcess => {
    clockMinute += 1;
    const updatedAt = new Date(Date.UTC(2026, 3, 1, 0, clockMinute)).toISOString();
    const next = { ...process, ...changes, updatedAt };
    gateway.put(next);
    return next;
  };

  const feed = (query: string, token = acmeToken) =>
    testApp.http.get(`/api/changes${query}`).set('Authorization', `Bearer ${token}`);

  /** Every change after `after` (or from the start), following `next` pages of `limit`. */
  const readAll = (after: string | null, token = acmeToken, limit = 500) =>
    readWholeFeed<Change>(testApp, token, { after, limit });

  beforeAll(async () => {
    gateway = new FakeOperationsGateway();
    testApp = await TestApp.start({
      target,
      override: (builder) => builder.overrideProvider(OperationsGateway).useValue(gateway),
    });
    await testApp.addCustomers(acme, globex);
    await testApp.addUser({ username: 'acme', password: 'acme-pass-1', customerIds: ['acme'] });
    await testApp.addUser({ username: 'operator', password: 'operator-pass-1', role: 'staff' });
    acmeToken = await testApp.login('acme', 'acme-pass-1');
    staffToken = await testApp.login('operator', 'operator-pass-1');
  });

  beforeEach(async () => {
    gateway.reset();
    await testApp.forgetSyncedData();
  });

  afterAll(() => testApp.close());

  it('records PROCESS_ADDED for every process of the first sync, each customer seeing its own', async () => {
    gateway.putAll(
      anOperationsProcess({ numero: 'IMP-1', customer: acme }),
      anOperationsProcess({ numero: 'IMP-2', customer: globex }),
      anOperationsProcess({ numero: 'IMP-3', customer: acme, status: 'BOOKED' }),
    );
    await syncNow(testApp);

    const response = await feed('').expect(200);
    const page = response.body as ChangesPage;
    expect(page.data.map((change) => [change.kind, change.numero, change.status])).toEqual([
      ['PROCESS_ADDED', 'IMP-1', 'IN_TRANSIT'],
      ['PROCESS_ADDED', 'IMP-3', 'BOOKED'],
    ]);
    expect(page.hasMore).toBe(false);
    expect(page.next).toBe(page.data[1]?.cursor);
    expect(page.data[0]).toEqual({
      cursor: expect.stringMatching(/^[A-Za-z0-9_-]{16}$/),
      recordedAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/),
      kind: 'PROCESS_ADDED',
      numero: 'IMP-1',
      status: 'IN_TRANSIT',
      updatedAt: '2026-03-01T12:00:00Z',
    });
    expect(response.headers['ratelimit-policy']).toBe('"per-user";q=600;w=60');
    expect(response.headers['cache-control']).toBe('private, no-cache');

    const all = await readAll(null, staffToken);
    expect(all.changes.map((change) => change.numero)).toEqual(['IMP-1', 'IMP-2', 'IMP-3']);
  });

  it('records nothing when sync finds the same data again', async () => {
    gateway.put(anOperationsProcess({ numero: 'IMP-1', customer: acme }));
    await syncNow(testApp);
    const { next } = await readAll(null);

    await syncNow(testApp);
    // An overlap re-read of the same copy (same updatedAt) is not newer: nothing is written.
    const again = await readAll(next);

    expect(again.changes).toEqual([]);
    expect(again.next).toBe(next);
  });

  it('records each kind of change, in the order a reader applies them', async () => {
    const opened = anEvent({ id: 'e1', code: 'PROCESS_OPENED', occurredAt: '2026-02-01T10:00:00Z' });
    const note = anEvent({
      id: 'e2',
      code: 'NOTE',
      description: 'Aguardando booking',
      occurredAt: '2026-02-02T10:00:00Z',
    });
    let process = revised(
      anOperationsProcess({ numero: 'IMP-1', customer: acme, status: 'OPEN', events: [opened, note] }),
      {},
    );
    await syncNow(testApp);
    const { next: afterAdded } = await readAll(null);

    const departed = anEvent({ id: 'e3', code: 'DEPARTED', occurredAt: '2026-02-21T03:00:00Z' });
    process = revised(process, { status: 'IN_TRANSIT', events: [opened, departed] });
    await syncNow(testApp);
    process = revised(process, {
      customsChannel: 'RED',
      customs: {
        declarationType: 'DUIMP',
        declarationNumber: '26BR0000000011-5',
        registeredAt: '2026-03-01T10:00:00Z',
        channel: 'RED',
        channelAssignedAt: '2026-03-02T10:00:00Z',
        clearedAt: null,
        ceMercante: null,
      },
    });
    await syncNow(testApp);
    process = revised(process, { eta: '2026-05-01' });
    await syncNow(testApp);
    // Only the detail changed upstream: updatedAt moved, nothing the list holds.
    revised(process, {});
    await syncNow(testApp);

    const { changes } = await readAll(afterAdded);
    expect(changes.map((change) => change.kind)).toEqual([
      'STATUS_CHANGED',
      'FOLLOW_REMOVED',
      'FOLLOW_ADDED',
      'CUSTOMS_CHANGED',
      'ETA_CHANGED',
      'PROCESS_UPDATED',
    ]);
    expect(changes[0]).toMatchObject({ status: 'IN_TRANSIT', previousStatus: 'OPEN' });
    // The retracted event as it was.
    expect(changes[1]?.follow).toEqual({
      id: 'e2',
      code: 'NOTE',
      description: 'Aguardando booking',
      occurredAt: '2026-02-02T10:00:00Z',
      location: { code: 'CNSHA', name: 'Shanghai' },
    });
    expect(changes[2]?.follow).toMatchObject({
      id: 'e3',
      code: 'DEPARTED',
      occurredAt: '2026-02-21T03:00:00Z',
    });
    expect(changes[3]).toMatchObject({ kind: 'CUSTOMS_CHANGED', customsChannel: 'RED' });
    expect(changes[4]).toMatchObject({
      kind: 'ETA_CHANGED',
      eta: '2026-05-01',
      previousEta: '2026-03-25',
      etaDelayDays: 37,
    });
    // Every change carries the process's status and updatedAt after it.
    expect(changes.at(-1)?.updatedAt).toBe('2026-04-01T00:05:00Z');

    // Sent compact, as JSON.stringify writes it, with the kind's own members last.
    const page = await feed(`?after=${afterAdded}`).expect(200);
    expect(page.text).toBe(JSON.stringify(page.body));
    expect(Object.keys(changes[1] ?? {})).toEqual([
      'cursor',
      'recordedAt',
      'kind',
      'numero',
      'status',
      'updatedAt',
      'follow',
    ]);
  });

  it('pages by cursor: every change once, in order, next staying put on an empty page', async () => {
    gateway.putAll(
      ...Array.from({ length: 25 }, (_, index) =>
        anOperationsProcess({
          numero: `IMP-${String(index).padStart(3, '0')}`,
          customer: index % 5 === 0 ? globex : acme,
        }),
      ),
    );
    await syncNow(testApp);

    const everything = await readAll(null, acmeToken, 500);
    const inSevens = await readAll(null, acmeToken, 7);
    const last = inSevens.next;
    const empty = (await feed(`?after=${last}&limit=3`).expect(200)).body as ChangesPage;

    expect(everything.changes).toHaveLength(20);
    expect(inSevens.changes).toEqual(everything.changes);
    expect(new Set(everything.changes.map((change) => change.cursor)).size).toBe(20);
    expect(empty).toEqual({ data: [], next: last, hasMore: false });
  });

  it('pages staff’s feed (every customer’s) in recording order too, past position 9', async () => {
    const numeros = Array.from({ length: 25 }, (_, index) => `IMP-${String(index).padStart(3, '0')}`);
    gateway.putAll(
      ...numeros.map((numero, index) =>
        anOperationsProcess({ numero, customer: index % 5 === 0 ? globex : acme }),
      ),
    );
    await syncNow(testApp);

    const everything = await readAll(null, staffToken, 500);
    const inSevens = await readAll(null, staffToken, 7);

    // One sync page, same updatedAt: recorded in numero order.
    expect(everything.changes.map((change) => change.numero)).toEqual(numeros);
    expect(inSevens.changes).toEqual(everything.changes);
  });

  it('never skips a change while a reader follows cursors during a sync of many pages', async () => {
    gateway.putAll(
      ...Array.from({ length: 450 }, (_, index) =>
        anOperationsProcess({
          numero: `IMP-${String(index).padStart(4, '0')}`,
          customer: acme,
          updatedAt: new Date(Date.UTC(2026, 2, 1) + index * 60_000).toISOString(),
        }),
      ),
    );
    const syncing = syncNow(testApp);
    let done = false;
    void syncing.finally(() => (done = true));

    const followed: Change[] = [];
    let cursor: string | null = null;
    for (;;) {
      const finished = done;
      const page = (await feed(`?limit=7${cursor === null ? '' : `&after=${cursor}`}`).expect(200))
        .body as ChangesPage;
      followed.push(...page.data);
      cursor = page.next;
      if (finished && !page.hasMore) break;
    }
    await syncing;

    const whole = (await readAll(null)).changes;
    expect(whole).toHaveLength(450);
    expect(followed).toEqual(whole);
  });

  it('starts at `since`, and refuses one before the retention window', async () => {
    gateway.put(anOperationsProcess({ numero: 'IMP-1', customer: acme }));
    await syncNow(testApp);
    const [first] = (await readAll(null)).changes;

    const fromThen = (await feed(`?since=${first?.recordedAt}`).expect(200)).body as ChangesPage;
    const later = new Date(Date.parse(first?.recordedAt ?? '') + 2000).toISOString();
    const fromLater = (await feed(`?since=${later}`).expect(200)).body as ChangesPage;
    const tooOld = await feed('?since=2020-01-01T00:00:00Z').expect(410);

    expect(fromThen.data.map((change) => change.numero)).toEqual(['IMP-1']);
    expect(fromLater.data).toEqual([]);
    // Asking again from `next` finds what came after `since`.
    gateway.put(revised(anOperationsProcess({ numero: 'IMP-2', customer: acme }), {}));
    await syncNow(testApp);
    const following = (await feed(`?after=${fromLater.next}`).expect(200)).body as ChangesPage;
    expect(following.data.map((change) => change.numero)).toEqual(['IMP-2']);
    expect(tooOld.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(tooOld.body).toMatchObject({ type: '/problems/cursor-expired', status: 410 });
  });

  it('answers 410 for a cursor whose following changes retention deleted', async () => {
    gateway.putAll(
      anOperationsProcess({ numero: 'IMP-1', customer: acme }),
      anOperationsProcess({ numero: 'IMP-2', customer: acme }),
    );
    await syncNow(testApp);
    const [first, second] = (await readAll(null)).changes;
    await testApp.database.db.execute(
      sql`UPDATE process_changes SET recorded_at = now() - interval '31 days'`,
    );

    await expect(testApp.app.get(ChangeRetention).prune()).resolves.toBe(2);

    const expired = await feed(`?after=${first?.cursor}`).expect(410);
    expect(expired.body.detail).toMatch(/read the list again/);
    // The last pruned position is still a valid place to go on from.
    await feed(`?after=${second?.cursor}`).expect(200);
    const fromStart = (await feed('').expect(200)).body as ChangesPage;
    expect(fromStart).toEqual({ data: [], next: second?.cursor, hasMore: false });
  });

  it('answers 400 naming after for a cursor beyond the end of the feed, not 410', async () => {
    gateway.put(anOperationsProcess({ numero: 'IMP-1', customer: acme }));
    await syncNow(testApp);
    const { next } = await readAll(null);

    // A well-formed cursor that no answer of this feed has given yet.
    const response = await feed(`?after=${encodeCursor(1_000_000)}`).expect(400);

    expect(response.body).toMatchObject({
      type: '/problems/invalid-request',
      errors: [{ in: 'query', name: 'after', message: expect.stringMatching(/beyond the end of the feed/) }],
    });
    // The end itself is a fine place to wait at.
    await feed(`?after=${next}`).expect(200);
  });
});
