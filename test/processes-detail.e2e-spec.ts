import { Clock } from '../src/common/clock.js';
import { OperationsGateway } from '../src/operations/operations.gateway.js';
import type { CustomsDeclaration } from '../src/domain/customs-declaration.js';
import { anOperationsDetail, anOperationsProcess } from '../src/testing/operations-process.factory.js';
import { FakeClock } from '../src/testing/fake-clock.js';
import { FakeOperationsGateway } from '../src/testing/fake-operations.gateway.js';
import { TestApp } from './support/test-app.js';
import { syncNow } from './support/sync-now.js';
import { APP_TEST_DATABASE_TARGET } from '../src/testing/test-database.js';

const CACHE_TTL_S = 60;
const STALE_TTL_S = 3600;

describe.each([APP_TEST_DATABASE_TARGET])('GET /api/processes/{numero} (%s)', (target) => {
  const gateway = new FakeOperationsGateway();
  const clock = new FakeClock();
  const customs: CustomsDeclaration = {
    declarationType: 'DUIMP',
    declarationNumber: '26BR0000123456-7',
    registeredAt: '2026-03-20T14:05:00Z',
    channel: 'RED',
    channelAssignedAt: '2026-03-20T18:40:00Z',
    clearedAt: null,
    ceMercante: { master: '152605012345678', house: '152605012345679' },
  };
  const seaProcess = anOperationsProcess({
    numero: 'IMP-2026-000777',
    containers: ['CSQU3054383'],
    customsChannel: 'RED',
    customs,
    freeTimeEndsAt: '2026-04-02',
  });
  const airProcess = anOperationsProcess({
    numero: 'EXP-2026-000888',
    type: 'EXPORT',
    mode: 'AIR',
    containers: [],
  });
  const globexProcess = anOperationsProcess({
    numero: 'IMP-2026-000999',
    customer: { id: 'globex', name: 'Globex Comércio S.A.' },
  });
  const unknownUpstream = anOperationsProcess({ numero: 'IMP-2026-000555' });
  let testApp: TestApp;
  let acmeToken: string;
  let staffToken: string;

  beforeAll(async () => {
    for (const process of [seaProcess, airProcess, globexProcess, unknownUpstream])
      gateway.put(process, anOperationsDetail(process));
    testApp = await TestApp.start({
      target,
      env: { OPERATIONS_CACHE_TTL_S: String(CACHE_TTL_S), OPERATIONS_STALE_TTL_S: String(STALE_TTL_S) },
      override: (builder) =>
        builder.overrideProvider(OperationsGateway).useValue(gateway).overrideProvider(Clock).useValue(clock),
    });
    await syncNow(testApp);
    gateway.details.delete(unknownUpstream.numero);
    await testApp.addUser({ username: 'acme', password: 'acme-pass-1', customerIds: ['acme'] });
    await testApp.addUser({ username: 'operator', password: 'operator-pass-1', role: 'staff' });
    acmeToken = await testApp.login('acme', 'acme-pass-1');
    staffToken = await testApp.login('operator', 'operator-pass-1');
  });

  afterAll(() => testApp.close());

  beforeEach(() => {
    gateway.failing = false;
    gateway.detailCalls = [];
    // Past every TTL: each test starts with nothing usable in the cache.
    clock.advance(2 * STALE_TTL_S * 1000);
  });

  const detail = (numero: string, token = acmeToken) =>
    testApp.http.get(`/api/processes/${numero}`).set('Authorization', `Bearer ${token}`);

  it('answers the full detail, fetched for this request', async () => {
    const response = await detail(seaProcess.numero).expect(200);
    const upstream = anOperationsDetail(seaProcess);

    expect(response.headers['cache-control']).toBe('private, no-cache');
    expect(response.headers.etag).toMatch(/^W\/"[^"]+"$/);
    expect(response.body).toMatchObject({
      numero: seaProcess.numero,
      status: seaProcess.status,
      updatedAt: seaProcess.updatedAt,
      parties: upstream.parties,
      shipment: upstream.shipment,
      containers: upstream.containers,
      voyages: upstream.voyages,
      customs,
      enrichment: { status: 'FRESH', fetchedAt: clock.now().toISOString().replace('.000Z', 'Z') },
    });
    expect(response.body.summary).toMatchObject({ customsChannel: 'RED', freeTimeEndsAt: '2026-04-02' });
    expect(response.body.containers[0].freeTimeEndsAt).toBe('2026-04-02');
    expect(response.body.summary.containers).toEqual(['CSQU3054383']);
    expect(response.body.lastFollow).toEqual(response.body.follow.at(-1));
    expect(gateway.detailCalls).toEqual([seaProcess.numero]);
  });

  it('shows every ETA recorded, oldest first, the first being the original and the last the current', async () => {
    gateway.put({ ...airProcess, eta: '2026-03-28', updatedAt: '2026-03-02T12:00:00Z' });
    await syncNow(testApp);

    const response = await detail(airProcess.numero).expect(200);

    expect(response.body.etaHistory).toEqual([
      { eta: '2026-03-25', recordedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/) },
      { eta: '2026-03-28', recordedAt: expect.stringMatching(/Z$/) },
    ]);
    expect(response.body.summary).toMatchObject({
      eta: '2026-03-28',
      originalEta: '2026-03-25',
      etaDelayDays: 3,
    });
  });

  it('carries the same follow as the list item', async () => {
    const [one, list] = await Promise.all([
      detail(seaProcess.numero).expect(200),
      testApp.http.get('/api/processes?pageSize=100').set('Authorization', `Bearer ${acmeToken}`).expect(200),
    ]);
    const item = (list.body.data as Array<{ numero: string; follow: unknown }>).find(
      (entry) => entry.numero === seaProcess.numero,
    );
    expect(one.body.follow).toEqual(item!.follow);
    expect(one.body.follow).toHaveLength(seaProcess.events.length);
  });

  it('serves the cached copy within the fresh TTL, then fetches again', async () => {
    await detail(seaProcess.numero).expect(200);
    clock.advance((CACHE_TTL_S - 1) * 1000);
    const cached = await detail(seaProcess.numero).expect(200);
    expect(cached.body.enrichment.status).toBe('CACHED');
    expect(gateway.detailCalls).toHaveLength(1);

    clock.advance(2000);
    const refetched = await detail(seaProcess.numero).expect(200);
    expect(refetched.body.enrichment.status).toBe('FRESH');
    expect(gateway.detailCalls).toHaveLength(2);
  });

  it('serves a stale copy when the operations system fails within the stale TTL', async () => {
    const fresh = await detail(seaProcess.numero).expect(200);
    clock.advance((CACHE_TTL_S + 5) * 1000);
    gateway.failing = true;

    const stale = await detail(seaProcess.numero).expect(200);
    expect(stale.body.enrichment).toEqual({ status: 'STALE', fetchedAt: fresh.body.enrichment.fetchedAt });
    expect(stale.body.shipment).toEqual(fresh.body.shipment);
  });

  it('answers 503 with Retry-After when the operations system fails and nothing usable is cached', async () => {
    gateway.failing = true;
    const response = await detail(seaProcess.numero).expect(503);
    expect(response.headers['retry-after']).toMatch(/^\d+$/);
    expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(response.body).toMatchObject({ type: '/problems/operations-unavailable', status: 503 });
    expect(JSON.stringify(response.body)).not.toMatch(/fake operations system/);
  });

  it('answers 503 once the cached copy is older than the stale TTL', async () => {
    await detail(seaProcess.numero).expect(200);
    clock.advance((STALE_TTL_S + 1) * 1000);
    gateway.failing = true;
    await detail(seaProcess.numero).expect(503);
  });

  it('coalesces concurrent requests for one process into one upstream call', async () => {
    gateway.hold();
    const requests = Array.from({ length: 8 }, () => detail(airProcess.numero).then((response) => response));
    await new Promise((resolve) => setTimeout(resolve, 200));
    gateway.release();
    const responses = await Promise.all(requests);
    for (const response of responses) expect(response.status).toBe(200);
    expect(gateway.detailCalls).toEqual([airProcess.numero]);
  });

  it('matches the numero case-insensitively', async () => {
    const response = await detail(seaProcess.numero.toLowerCase()).expect(200);
    expect(response.body.numero).toBe(seaProcess.numero);
  });

  it('omits customs until a declaration is registered', async () => {
    const response = await detail(airProcess.numero).expect(200);
    expect(response.body).not.toHaveProperty('customs');
    expect(response.body.summary).toMatchObject({ customsChannel: null, freeTimeEndsAt: null });
  });

  it('omits containers and voyages when the operations system has none', async () => {
    const response = await detail(airProcess.numero).expect(200);
    expect(response.body).not.toHaveProperty('containers');
    expect(response.body).not.toHaveProperty('voyages');
    expect(response.body.summary.containers).toEqual([]);
  });

  it('answers the same 404 for a missing process and another customer’s, without asking upstream', async () => {
    const missing = await detail('IMP-2099-000001').expect(404);
    const foreign = await detail(globexProcess.numero).expect(404);
    for (const response of [missing, foreign]) {
      expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(Object.keys(response.body).sort()).toEqual([
        'detail',
        'instance',
        'requestId',
        'status',
        'title',
        'type',
      ]);
      expect(response.body).toMatchObject({ type: '/problems/not-found', status: 404, title: 'Not found' });
    }
    expect(gateway.detailCalls).toEqual([]);
  });

  it('lets staff see every customer’s process', async () => {
    const response = await detail(globexProcess.numero, staffToken).expect(200);
    expect(response.body.summary.customer.id).toBe('globex');
  });

  it('answers 404 when the operations system no longer knows the process', async () => {
    await detail(unknownUpstream.numero).expect(404);
  });

  it('answers 304 to If-None-Match whatever the enrichment status', async () => {
    const first = await detail(seaProcess.numero).expect(200);
    const second = await detail(seaProcess.numero)
      .set('If-None-Match', first.headers.etag as string)
      .expect(304);
    expect(second.headers.etag).toBe(first.headers.etag);
  });

  it.each([
    ['too long', 'A'.repeat(41)],
    ['a forbidden character', 'IMP-2026+000777'],
    ['an encoded slash', 'IMP%2F2026'],
    ['a space', 'IMP%202026'],
  ])('refuses a numero with %s: 400 in path, no upstream call', async (_case, numero) => {
    const response = await detail(numero).expect(400);
    expect(response.body).toMatchObject({
      type: '/problems/invalid-request',
      errors: [{ in: 'path', name: 'numero', message: expect.any(String) }],
    });
    expect(gateway.detailCalls).toEqual([]);
  });

  it('needs a token', async () => {
    await testApp.http.get(`/api/processes/${seaProcess.numero}`).expect(401);
  });
});
