import { APP_TEST_DATABASE_TARGET } from '../src/testing/test-database.js';
import { TestApp } from './support/test-app.js';

interface RegisteredClient {
  clientId: string;
  clientSecret: string;
}

/**
 * The token endpoint where the black-box suite cannot reach: a user disabled under their client, and
 * failed client authentications counted per address behind a proxy (`TRUST_PROXY`). The rest, with
 * openid-client, is in `test/remote/`.
 */
describe.each([APP_TEST_DATABASE_TARGET])('OAuth 2.0 client credentials (%s)', (target) => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await TestApp.start({ target, env: { TRUST_PROXY: '1' } });
    await testApp.addCustomers({ id: 'acme', name: 'ACME Importadora Ltda' });
  });

  afterAll(() => testApp.close());

  const register = async (username: string): Promise<RegisteredClient> => {
    await testApp.addUser({ username, password: `${username}-pass-1`, customerIds: ['acme'] });
    const token = await testApp.login(username, `${username}-pass-1`);
    const registered = await testApp.http
      .post('/api/clients')
      .set('Authorization', `Bearer ${token}`)
      .send({ name: 'BI', scopes: ['processes:read'] })
      .expect(201);
    return registered.body as RegisteredClient;
  };
  const askToken = (client: RegisteredClient, secret: string, address = '198.51.100.7') =>
    testApp.http
      .post('/api/oauth/token')
      .type('form')
      .set('X-Forwarded-For', address)
      .send({ grant_type: 'client_credentials', client_id: client.clientId, client_secret: secret });

  it('refuses a token to the client of a disabled user', async () => {
    const client = await register('leaver');
    await askToken(client, client.clientSecret).expect(200);
    const { UsersRepository } = await import('../src/auth/users/users.repository.js');
    await testApp.app.get(UsersRepository).update('leaver', { active: false });

    const refused = await askToken(client, client.clientSecret).expect(401);

    expect(refused.body.error).toBe('invalid_client');
  });

  it('counts failed client authentications like failed logins: the 11th from one address is 429', async () => {
    const client = await register('erp');
    for (let failure = 0; failure < 10; failure += 1) {
      await askToken(client, 'pls_wrong', '198.51.100.23').expect(401);
    }

    const limited = await askToken(client, client.clientSecret, '198.51.100.23').expect(429);

    expect(limited.headers['retry-after']).toMatch(/^\d+$/);
    await askToken(client, client.clientSecret, '198.51.100.24').expect(200);
  });
});
