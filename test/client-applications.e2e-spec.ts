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

/**
 * What a client application's secret is stored as, and how long a replaced one lasts (a fake
 * clock): the black-box suite checks the rest of the client applications API.
 */
describe.each([APP_TEST_DATABASE_TARGET])('Client applications (%s)', (target) => {
  let testApp: TestApp;
  const clock = new FakeClock();
  let acme: string;

  beforeAll(async () => {
    testApp = await TestApp.start({
      target,
      override: (builder) => builder.overrideProvider(Clock).useValue(clock),
    });
    await testApp.addCustomers({ id: 'acme', name: 'ACME Importadora Ltda' });
    await testApp.addUser({ username: 'acme', password: 'acme-pass-1', customerIds: ['acme'] });
    acme = await testApp.login('acme', 'acme-pass-1');
  });

  afterAll(() => testApp.close());

  const createClient = async () =>
    (
      await testApp.http
        .post('/api/clients')
        .set('Authorization', `Bearer ${acme}`)
        .send({ name: 'SAP production', scopes: ['processes:read'] })
        .expect(201)
    ).body as CreatedClient;
  const tokenFor = (clientId: string, clientSecret: string) =>
    testApp.http
      .post('/api/oauth/token')
      .type('form')
      .send({ grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret });

  it('stores only a hash of the secret', async () => {
    const { clientSecret } = await createClient();
    const rows = await testApp.app.get(DatabaseService).db.select().from(clientApplications);
    expect(JSON.stringify(rows)).not.toContain(clientSecret);
    expect(JSON.stringify(rows)).not.toContain(clientSecret.slice(4));
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
});
