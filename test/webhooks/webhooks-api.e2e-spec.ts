import { sql } from 'drizzle-orm';
import { rowsOf } from '../../src/database/sql-rows.js';
import { encodeCursor } from '../../src/changes/change-cursor.js';
import { TestApp } from '../support/test-app.js';
import { APP_TEST_DATABASE_TARGET } from '../../src/testing/test-database.js';
import { aChange, recordChanges } from './support/record-changes.js';

interface Webhook {
  id: string;
  url: string;
  description: string | null;
  kinds: string[] | null;
  status: string;
  disabledReason: string | null;
  position: string;
  failedAttempts: number;
  nextAttemptAt: string | null;
  createdAt: string;
  updatedAt: string;
  secret?: string;
}

const RECEIVER = 'http://127.0.0.1:9/hooks';

/**
 * Where a subscription starts in a feed the test wrote, and how its secret is stored: the
 * black-box suite checks the rest of the webhooks API against the deployment.
 */
describe.each([APP_TEST_DATABASE_TARGET])('/api/webhooks (%s)', (target) => {
  let testApp: TestApp;
  let acmeToken: string;

  const as = (token: string) => ({
    get: (path: string) => testApp.http.get(path).set('Authorization', `Bearer ${token}`),
    post: (path: string, body?: object) => {
      const request = testApp.http.post(path).set('Authorization', `Bearer ${token}`);
      return body === undefined ? request : request.send(body);
    },
    delete: (path: string) => testApp.http.delete(path).set('Authorization', `Bearer ${token}`),
  });
  const create = async (body: object = { url: RECEIVER }): Promise<Webhook> =>
    (await as(acmeToken).post('/api/webhooks', body).expect(201)).body as Webhook;

  beforeAll(async () => {
    testApp = await TestApp.start({
      target,
      env: { WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' },
    });
    await testApp.addCustomers({ id: 'acme', name: 'ACME' });
    await testApp.addUser({ username: 'acme', password: 'acme-pass-1', customerIds: ['acme'] });
    acmeToken = await testApp.login('acme', 'acme-pass-1');
  });

  afterAll(() => testApp.close());

  afterEach(async () => {
    const { data } = (await as(acmeToken).get('/api/webhooks').expect(200)).body as { data: Webhook[] };
    for (const webhook of data) await as(acmeToken).delete(`/api/webhooks/${webhook.id}`).expect(204);
  });

  it('creates a subscription at the end of the feed, showing its secret once', async () => {
    await recordChanges(testApp, aChange('acme', 'IMP-1'));
    const { body: feed } = await as(acmeToken).get('/api/changes').expect(200);

    const response = await as(acmeToken)
      .post('/api/webhooks', { url: RECEIVER, description: 'ERP', kinds: ['STATUS_CHANGED'] })
      .expect(201);
    const created = response.body as Webhook;

    expect(created).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      url: RECEIVER,
      description: 'ERP',
      kinds: ['STATUS_CHANGED'],
      status: 'ACTIVE',
      disabledReason: null,
      position: (feed as { next: string }).next,
      failedAttempts: 0,
      nextAttemptAt: null,
      createdAt: expect.stringMatching(/Z$/),
      updatedAt: expect.stringMatching(/Z$/),
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/),
    });
    expect(Buffer.from(created.secret!.slice(6), 'base64')).toHaveLength(32);
    expect(response.headers.location).toBe(`/api/webhooks/${created.id}`);
    expect(response.headers['cache-control']).toBe('no-store');

    const { body: read } = await as(acmeToken).get(`/api/webhooks/${created.id}`).expect(200);
    const { body: list } = await as(acmeToken).get('/api/webhooks').expect(200);
    expect(read).toEqual({ ...created, secret: undefined });
    expect(read).not.toHaveProperty('secret');
    expect(list).toEqual({ data: [read] });
  });

  it('stores the secret encrypted, never as it was shown', async () => {
    const created = await create();
    const rows = await rowsOf<{ secret: string }>(
      testApp.database.db,
      sql`SELECT secret FROM webhook_subscriptions WHERE id = ${created.id}`,
    );

    expect(rows[0]?.secret).toMatch(/^v1\./);
    expect(rows[0]?.secret).not.toContain(created.secret!.slice(6));
  });

  it('starts after a cursor or from an instant when asked', async () => {
    await recordChanges(testApp, aChange('acme', 'IMP-2'), aChange('acme', 'IMP-3'));
    const { body: feed } = await as(acmeToken).get('/api/changes').expect(200);
    const [first] = (feed as { data: Array<{ cursor: string; recordedAt: string }> }).data;

    expect((await create({ url: RECEIVER, after: first!.cursor })).position).toBe(first!.cursor);
    // Every change of this file's database was recorded within the last day: from the start.
    const since = new Date(Date.now() - 86_400_000).toISOString();
    expect((await create({ url: RECEIVER, since })).position).toBe(encodeCursor(0));
  });
});
