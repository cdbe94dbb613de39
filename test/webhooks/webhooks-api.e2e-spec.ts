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

describe.each([APP_TEST_DATABASE_TARGET])('/api/webhooks (%s)', (target) => {
  let testApp: TestApp;
  let acmeToken: string;
  let globexToken: string;

  const as = (token: string) => ({
    get: (path: string) => testApp.http.get(path).set('Authorization', `Bearer ${token}`),
    post: (path: string, body?: object) => {
      const request = testApp.http.post(path).set('Authorization', `Bearer ${token}`);
      return body === undefined ? request : request.send(body);
    },
    patch: (path: string, body: object) =>
      testApp.http.patch(path).set('Authorization', `Bearer ${token}`).send(body),
    delete: (path: string) => testApp.http.delete(path).set('Authorization', `Bearer ${token}`),
  });
  const create = async (body: object = { url: RECEIVER }, token = acmeToken): Promise<Webhook> =>
    (await as(token).post('/api/webhooks', body).expect(201)).body as Webhook;

  beforeAll(async () => {
    testApp = await TestApp.start({
      target,
      env: { WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' },
    });
    await testApp.addCustomers({ id: 'acme', name: 'ACME' }, { id: 'globex', name: 'Globex' });
    await testApp.addUser({ username: 'acme', password: 'acme-pass-1', customerIds: ['acme'] });
    await testApp.addUser({ username: 'globex', password: 'globex-pass-1', customerIds: ['globex'] });
    acmeToken = await testApp.login('acme', 'acme-pass-1');
    globexToken = await testApp.login('globex', 'globex-pass-1');
  });

  afterAll(() => testApp.close());

  afterEach(async () => {
    for (const token of [acmeToken, globexToken]) {
      const { data } = (await as(token).get('/api/webhooks').expect(200)).body as { data: Webhook[] };
      for (const webhook of data) await as(token).delete(`/api/webhooks/${webhook.id}`).expect(204);
    }
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

  it('answers another user’s subscription, or a malformed id, as a missing one', async () => {
    const acmeHook = await create();

    for (const path of [
      `/api/webhooks/${acmeHook.id}`,
      `/api/webhooks/${acmeHook.id}/deliveries`,
      '/api/webhooks/not-a-uuid',
      '/api/webhooks/00000000-0000-4000-8000-000000000000',
    ]) {
      const response = await as(globexToken).get(path).expect(404);
      expect(response.body).toMatchObject({ type: '/problems/not-found', status: 404 });
    }
    await as(globexToken).patch(`/api/webhooks/${acmeHook.id}`, { status: 'PAUSED' }).expect(404);
    await as(globexToken).post(`/api/webhooks/${acmeHook.id}/secret`).expect(404);
    await as(globexToken)
      .post(`/api/webhooks/${acmeHook.id}/replay`, { since: '2026-03-14T00:00:00Z' })
      .expect(404);
    await as(globexToken).delete(`/api/webhooks/${acmeHook.id}`).expect(404);
    expect((await as(globexToken).get('/api/webhooks').expect(200)).body).toEqual({ data: [] });
    await as(acmeToken).get(`/api/webhooks/${acmeHook.id}`).expect(200);
  });

  it('refuses invalid bodies with 400 and every offending field', async () => {
    const response = await as(acmeToken)
      .post('/api/webhooks', {
        url: 42,
        kinds: ['NOPE'],
        description: 'x'.repeat(300),
        after: 'bad',
        extra: true,
      })
      .expect(400);

    expect(response.body).toMatchObject({ type: '/problems/invalid-request', status: 400 });
    expect(
      (response.body as { errors: Array<{ name: string }> }).errors.map((error) => error.name).sort(),
    ).toEqual(['after', 'description', 'extra', 'kinds', 'url']);
    const both = await as(acmeToken)
      .post('/api/webhooks', { url: RECEIVER, after: 'AAAAAAAAAAAAAAAA', since: '2026-03-14T00:00:00Z' })
      .expect(400);
    expect(both.body.errors).toEqual(
      expect.arrayContaining([expect.objectContaining({ in: 'body', name: 'since' })]),
    );
    await as(acmeToken).post('/api/webhooks', {}).expect(400);
    const created = await create();
    const patch = await as(acmeToken)
      .patch(`/api/webhooks/${created.id}`, { status: 'DISABLED', url: null })
      .expect(400);
    expect(patch.body.errors.map((error: { name: string }) => error.name).sort()).toEqual(['status', 'url']);
    const replay = await as(acmeToken).post(`/api/webhooks/${created.id}/replay`, {}).expect(400);
    expect(replay.body.errors).toEqual([expect.objectContaining({ in: 'body', name: 'after' })]);
    await as(acmeToken).get(`/api/webhooks/${created.id}/deliveries?limit=0`).expect(400);
  });

  it('refuses a body that is not JSON with 415', async () => {
    await testApp.http
      .post('/api/webhooks')
      .set('Authorization', `Bearer ${acmeToken}`)
      .set('Content-Type', 'text/plain')
      .send('url=x')
      .expect(415);
  });

  it('updates the URL, description and kinds, pauses and resumes', async () => {
    const created = await create();

    const { body: updated } = await as(acmeToken)
      .patch(`/api/webhooks/${created.id}`, {
        url: 'http://127.0.0.1:9/other',
        description: null,
        kinds: ['FOLLOW_ADDED', 'FOLLOW_REMOVED'],
        status: 'PAUSED',
      })
      .expect(200);

    expect(updated).toMatchObject({
      url: 'http://127.0.0.1:9/other',
      description: null,
      kinds: ['FOLLOW_ADDED', 'FOLLOW_REMOVED'],
      status: 'PAUSED',
    });
    const { body: resumed } = await as(acmeToken)
      .patch(`/api/webhooks/${created.id}`, { status: 'ACTIVE', kinds: null })
      .expect(200);
    expect(resumed).toMatchObject({ status: 'ACTIVE', kinds: null, url: 'http://127.0.0.1:9/other' });
  });

  it('rotates the secret, answering the new one only', async () => {
    const created = await create();

    const response = await as(acmeToken).post(`/api/webhooks/${created.id}/secret`).expect(200);

    expect(response.body).toEqual({ secret: expect.stringMatching(/^whsec_/) });
    expect(response.body.secret).not.toBe(created.secret);
    expect(response.headers['cache-control']).toBe('no-store');
  });

  it('replays from a cursor or an instant, 410 before retention', async () => {
    await recordChanges(testApp, aChange('acme', 'IMP-4'));
    const { body: feed } = await as(acmeToken).get('/api/changes').expect(200);
    const [first] = (feed as { data: Array<{ cursor: string }> }).data;
    const created = await create();

    const replayed = await as(acmeToken)
      .post(`/api/webhooks/${created.id}/replay`, { after: first!.cursor })
      .expect(202);
    expect(replayed.body).toMatchObject({ id: created.id, position: first!.cursor, status: 'ACTIVE' });

    const expired = await as(acmeToken)
      .post(`/api/webhooks/${created.id}/replay`, { since: '2000-01-01T00:00:00Z' })
      .expect(410);
    expect(expired.body).toMatchObject({ type: '/problems/cursor-expired' });
  });

  it('lists no deliveries for a new subscription', async () => {
    const created = await create();

    const { body } = await as(acmeToken).get(`/api/webhooks/${created.id}/deliveries`).expect(200);

    expect(body).toEqual({ data: [], next: null, hasMore: false });
  });

  it('allows 10 subscriptions per user, 409 beyond', async () => {
    for (let i = 0; i < 10; i++) await create();

    const response = await as(acmeToken).post('/api/webhooks', { url: RECEIVER }).expect(409);

    expect(response.body).toMatchObject({ type: '/problems/webhook-limit-reached', status: 409 });
    await create({ url: RECEIVER }, globexToken);
  });

  it('needs a token', async () => {
    await testApp.http.get('/api/webhooks').expect(401);
  });
});
