import { Clock } from '../src/common/clock.js';
import { DatabaseService } from '../src/database/database.service.js';
import { clientApplications } from '../src/database/schema.js';
import { FakeClock } from '../src/testing/fake-clock.js';
import { APP_TEST_DATABASE_TARGET } from '../src/testing/test-database.js';
import { TestApp } from './support/test-app.js';

const HOUR_MS = 60 * 60 * 1000;

interface CreatedClient {
  id: string;
  name: string;
  clientId: string;
  clientSecret: string;
  scopes: string[];
  createdAt: string;
  lastUsedAt: string | null;
}

describe.each([APP_TEST_DATABASE_TARGET])('Client applications (%s)', (target) => {
  let testApp: TestApp;
  const clock = new FakeClock();
  let acme: string;
  let globex: string;

  beforeAll(async () => {
    testApp = await TestApp.start({
      target,
      override: (builder) => builder.overrideProvider(Clock).useValue(clock),
    });
    await testApp.addCustomers(
      { id: 'acme', name: 'ACME Importadora Ltda' },
      { id: 'globex', name: 'Globex' },
    );
    await testApp.addUser({ username: 'acme', password: 'acme-pass-1', customerIds: ['acme'] });
    await testApp.addUser({ username: 'globex', password: 'globex-pass-1', customerIds: ['globex'] });
    await testApp.addUser({ username: 'full', password: 'full-pass-1', customerIds: ['acme'] });
    acme = await testApp.login('acme', 'acme-pass-1');
    globex = await testApp.login('globex', 'globex-pass-1');
  });

  afterAll(() => testApp.close());

  const create = (token: string, body: object) =>
    testApp.http.post('/api/clients').set('Authorization', `Bearer ${token}`).send(body);
  const createClient = async (token = acme, scopes = ['processes:read', 'changes:read']) =>
    (await create(token, { name: 'SAP production', scopes }).expect(201)).body as CreatedClient;
  const tokenFor = (clientId: string, clientSecret: string) =>
    testApp.http
      .post('/api/oauth/token')
      .type('form')
      .send({ grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret });

  it('creates a client: 201 with Location, its client id and its secret, shown this once', async () => {
    const response = await create(acme, {
      name: 'SAP production',
      scopes: ['processes:read', 'changes:read'],
    }).expect(201);

    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.headers.location).toBe(`/api/clients/${response.body.id as string}`);
    expect(response.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      name: 'SAP production',
      clientId: expect.stringMatching(/^plc_[A-Za-z0-9_-]{22}$/),
      clientSecret: expect.stringMatching(/^pls_[A-Za-z0-9_-]{43}$/),
      scopes: ['processes:read', 'changes:read'],
      createdAt: clock.now().toISOString().replace('.000Z', 'Z'),
      lastUsedAt: null,
    });
    const listed = await testApp.http.get('/api/clients').set('Authorization', `Bearer ${acme}`).expect(200);
    const { clientSecret: _secret, ...withoutSecret } = response.body as CreatedClient;
    expect(listed.body.data).toContainEqual(withoutSecret);
    expect(JSON.stringify(listed.body)).not.toContain('clientSecret');
  });

  it('stores only a hash of the secret', async () => {
    const { clientSecret } = await createClient();
    const rows = await testApp.app.get(DatabaseService).db.select().from(clientApplications);
    expect(JSON.stringify(rows)).not.toContain(clientSecret);
    expect(JSON.stringify(rows)).not.toContain(clientSecret.slice(4));
  });

  it('gets, renames and re-scopes a client; another user’s client is a 404', async () => {
    const { id } = await createClient();
    const path = `/api/clients/${id}`;

    await testApp.http.get(path).set('Authorization', `Bearer ${acme}`).expect(200);
    await testApp.http.get(path).set('Authorization', `Bearer ${globex}`).expect(404);
    await testApp.http.patch(path).set('Authorization', `Bearer ${globex}`).send({ name: 'x' }).expect(404);
    await testApp.http.delete(path).set('Authorization', `Bearer ${globex}`).expect(404);
    await testApp.http.post(`${path}/secret`).set('Authorization', `Bearer ${globex}`).expect(404);
    const renamed = await testApp.http
      .patch(path)
      .set('Authorization', `Bearer ${acme}`)
      .send({ name: 'SAP QA', scopes: ['webhooks:manage'] })
      .expect(200);

    expect(renamed.body).toMatchObject({ id, name: 'SAP QA', scopes: ['webhooks:manage'] });
    await testApp.http.get('/api/clients/not-a-uuid').set('Authorization', `Bearer ${acme}`).expect(404);
  });

  it('deletes a client: 204, then 404, and its secret gets no token', async () => {
    const { id, clientId, clientSecret } = await createClient();

    await testApp.http.delete(`/api/clients/${id}`).set('Authorization', `Bearer ${acme}`).expect(204);
    await testApp.http.get(`/api/clients/${id}`).set('Authorization', `Bearer ${acme}`).expect(404);
    await tokenFor(clientId, clientSecret).expect(401);
  });

  it('rotates the secret: the new one works, and the old one for 24 hours', async () => {
    const { id, clientId, clientSecret: old } = await createClient();
    const rotated = await testApp.http
      .post(`/api/clients/${id}/secret`)
      .set('Authorization', `Bearer ${acme}`)
      .expect(200);

    expect(rotated.headers['cache-control']).toBe('no-store');
    const fresh = rotated.body.clientSecret as string;
    expect(fresh).toMatch(/^pls_/);
    expect(fresh).not.toBe(old);
    await tokenFor(clientId, fresh).expect(200);
    clock.advance(24 * HOUR_MS - 1000);
    await tokenFor(clientId, old).expect(200);
    clock.advance(2000);
    await tokenFor(clientId, old).expect(401);
    await tokenFor(clientId, fresh).expect(200);
  });

  it('shows when a client last got a token', async () => {
    const { id, clientId, clientSecret } = await createClient();
    await tokenFor(clientId, clientSecret).expect(200);

    const got = await testApp.http
      .get(`/api/clients/${id}`)
      .set('Authorization', `Bearer ${acme}`)
      .expect(200);
    expect(got.body.lastUsedAt).toBe(clock.now().toISOString().replace('.000Z', 'Z'));
  });

  it('refuses an 11th client of one user with 409', async () => {
    const full = await testApp.login('full', 'full-pass-1');
    for (let index = 0; index < 10; index += 1) await createClient(full);

    const response = await create(full, { name: 'one more', scopes: ['processes:read'] }).expect(409);
    expect(response.body).toMatchObject({ type: '/problems/client-limit-reached', status: 409 });
  });

  it.each([
    ['no name', { scopes: ['processes:read'] }, { name: 'name', message: 'is required' }],
    [
      'an empty name',
      { name: '', scopes: ['processes:read'] },
      { name: 'name', message: expect.any(String) },
    ],
    ['no scopes', { name: 'x' }, { name: 'scopes', message: 'is required' }],
    ['no scope in scopes', { name: 'x', scopes: [] }, { name: 'scopes', message: expect.any(String) }],
    [
      'an unknown scope',
      { name: 'x', scopes: ['admin'] },
      { name: 'scopes', message: 'each must be one of processes:read, changes:read, webhooks:manage' },
    ],
    [
      'a member it does not know',
      { name: 'x', scopes: ['processes:read'], secret: 'mine' },
      { name: 'secret' },
    ],
  ])('answers 400 to %s, naming the field', async (_case, body, error) => {
    const response = await create(acme, body).expect(400);
    expect(response.body.errors).toEqual([expect.objectContaining({ in: 'body', ...error })]);
  });

  it('refuses to let a client’s token manage clients (403 insufficient-scope)', async () => {
    const { id, clientId, clientSecret } = await createClient(acme, ['processes:read', 'webhooks:manage']);
    const token = (await tokenFor(clientId, clientSecret).expect(200)).body.access_token as string;

    for (const request of [
      testApp.http.get('/api/clients'),
      testApp.http.post('/api/clients').send({ name: 'x', scopes: ['processes:read'] }),
      testApp.http.get(`/api/clients/${id}`),
      testApp.http.post(`/api/clients/${id}/secret`),
      testApp.http.delete(`/api/clients/${id}`),
    ]) {
      const response = await request.set('Authorization', `Bearer ${token}`).expect(403);
      expect(response.body).toMatchObject({ type: '/problems/insufficient-scope', status: 403 });
      expect(response.headers['www-authenticate']).toBe(
        'Bearer realm="process-lookup", error="insufficient_scope"',
      );
    }
  });
});
