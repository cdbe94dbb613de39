import type { AddressInfo } from 'node:net';
import * as oidc from 'openid-client';
import { APP_TEST_DATABASE_TARGET } from '../src/testing/test-database.js';
import { TestApp } from './support/test-app.js';

interface RegisteredClient {
  id: string;
  clientId: string;
  clientSecret: string;
}

/**
 * A system configured with nothing but a client id and secret, through an OAuth library nobody on
 * the team wrote (openid-client), against the service listening on loopback.
 */
describe.each([APP_TEST_DATABASE_TARGET])('OAuth 2.0 client credentials (%s)', (target) => {
  let testApp: TestApp;
  let baseUrl: string;
  let acme: string;
  let server: oidc.ServerMetadata;

  beforeAll(async () => {
    testApp = await TestApp.start({
      target,
      env: { TRUST_PROXY: '1', WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' },
    });
    await testApp.app.listen(0, '127.0.0.1');
    baseUrl = `http://127.0.0.1:${(testApp.app.getHttpServer().address() as AddressInfo).port}`;
    await testApp.addCustomers({ id: 'acme', name: 'ACME Importadora Ltda' });
    await testApp.addUser({ username: 'acme', password: 'acme-pass-1', customerIds: ['acme'] });
    acme = await testApp.login('acme', 'acme-pass-1');
    server = (await testApp.http.get('/.well-known/oauth-authorization-server').expect(200))
      .body as oidc.ServerMetadata;
  });

  afterAll(() => testApp.close());

  const register = async (scopes = ['processes:read', 'changes:read', 'webhooks:manage']) =>
    (
      await testApp.http
        .post('/api/clients')
        .set('Authorization', `Bearer ${acme}`)
        .send({ name: 'ERP', scopes })
        .expect(201)
    ).body as RegisteredClient;

  /** openid-client configured from our metadata; plain HTTP allowed on loopback only. */
  const configurationOf = (clientId: string, clientAuth: oidc.ClientAuth) => {
    const configuration = new oidc.Configuration(
      { ...server, token_endpoint: `${baseUrl}/api/oauth/token` },
      clientId,
      undefined,
      clientAuth,
    );
    oidc.allowInsecureRequests(configuration);
    return configuration;
  };
  const failureOf = (promise: Promise<unknown>) =>
    promise.then(
      () => {
        throw new Error('expected the grant to fail');
      },
      (error: unknown) => error,
    );

  it('publishes its metadata (RFC 8414)', () => {
    expect(server).toEqual({
      issuer: 'process-lookup',
      token_endpoint: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/api\/oauth\/token$/),
      grant_types_supported: ['client_credentials'],
      token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
      scopes_supported: ['processes:read', 'changes:read', 'webhooks:manage'],
    });
  });

  it.each([
    ['client_secret_basic', oidc.ClientSecretBasic],
    ['client_secret_post', oidc.ClientSecretPost],
  ])('gets a token with %s and reads the list and the feed with it', async (_method, clientAuth) => {
    const { clientId, clientSecret } = await register();
    const tokens = await oidc.clientCredentialsGrant(configurationOf(clientId, clientAuth(clientSecret)));

    expect(tokens.token_type).toBe('bearer');
    expect(tokens.expires_in).toBe(900);
    expect(tokens.scope).toBe('processes:read changes:read webhooks:manage');
    expect(tokens.refresh_token).toBeUndefined();
    for (const path of ['/api/processes', '/api/changes']) {
      const response = await fetch(`${baseUrl}${path}`, {
        headers: { Authorization: `Bearer ${tokens.access_token}` },
      });
      expect(response.status).toBe(200);
    }
  });

  it('narrows the token to the scope asked for, and a route needing another answers 403 with the scope', async () => {
    const { clientId, clientSecret } = await register();
    const configuration = configurationOf(clientId, oidc.ClientSecretBasic(clientSecret));
    const tokens = await oidc.clientCredentialsGrant(configuration, { scope: 'processes:read' });

    expect(tokens.scope).toBe('processes:read');
    const refused = await testApp.http
      .get('/api/changes')
      .set('Authorization', `Bearer ${tokens.access_token}`)
      .expect(403);
    expect(refused.headers['www-authenticate']).toBe(
      'Bearer realm="process-lookup", error="insufficient_scope", scope="changes:read"',
    );
    expect(refused.body).toMatchObject({
      type: '/problems/insufficient-scope',
      detail: 'This route needs the scope changes:read, which the token lacks',
    });
  });

  it('issues an RFC 9068 token: typ at+jwt, sub and client_id the client id, scope, no sid', async () => {
    const { clientId, clientSecret } = await register(['processes:read']);
    const tokens = await oidc.clientCredentialsGrant(
      configurationOf(clientId, oidc.ClientSecretPost(clientSecret)),
    );
    const [header, payload] = tokens.access_token
      .split('.')
      .slice(0, 2)
      .map((part) => JSON.parse(Buffer.from(part, 'base64url').toString()) as Record<string, unknown>);

    expect(header).toEqual({ alg: 'HS256', typ: 'at+jwt' });
    expect(payload).toEqual({
      sub: clientId,
      client_id: clientId,
      scope: 'processes:read',
      iss: 'process-lookup',
      aud: 'process-lookup-api',
      iat: expect.any(Number),
      exp: (payload!.iat as number) + 900,
      jti: expect.any(String),
    });
  });

  it('answers a wrong secret with invalid_client, which the library reads', async () => {
    const { clientId } = await register();
    const error = await failureOf(
      oidc.clientCredentialsGrant(configurationOf(clientId, oidc.ClientSecretPost('pls_wrong'))),
    );

    expect(error).toBeInstanceOf(oidc.ResponseBodyError);
    expect(error).toMatchObject({ error: 'invalid_client', status: 401 });
  });

  it('answers a scope the client lacks with invalid_scope, which the library reads', async () => {
    const { clientId, clientSecret } = await register(['processes:read']);
    const error = await failureOf(
      oidc.clientCredentialsGrant(configurationOf(clientId, oidc.ClientSecretBasic(clientSecret)), {
        scope: 'processes:read webhooks:manage',
      }),
    );

    expect(error).toMatchObject({
      error: 'invalid_scope',
      error_description: 'This client may not ask for: webhooks:manage',
      status: 400,
    });
  });

  it('manages webhooks as the user who registered it: they are that user’s webhooks', async () => {
    const { clientId, clientSecret } = await register(['webhooks:manage']);
    const { access_token } = await oidc.clientCredentialsGrant(
      configurationOf(clientId, oidc.ClientSecretBasic(clientSecret)),
    );
    const created = await testApp.http
      .post('/api/webhooks')
      .set('Authorization', `Bearer ${access_token}`)
      .send({ url: 'http://127.0.0.1:9/hooks' })
      .expect(201);

    const listed = await testApp.http.get('/api/webhooks').set('Authorization', `Bearer ${acme}`).expect(200);
    expect(listed.body.data.map((webhook: { id: string }) => webhook.id)).toContain(created.body.id);
  });

  it('refuses the tokens of a deleted client, saying they were revoked', async () => {
    const { id, clientId, clientSecret } = await register();
    const { access_token } = await oidc.clientCredentialsGrant(
      configurationOf(clientId, oidc.ClientSecretPost(clientSecret)),
    );
    await testApp.http.get('/api/processes').set('Authorization', `Bearer ${access_token}`).expect(200);
    await testApp.http.delete(`/api/clients/${id}`).set('Authorization', `Bearer ${acme}`).expect(204);

    const refused = await testApp.http
      .get('/api/processes')
      .set('Authorization', `Bearer ${access_token}`)
      .expect(401);
    expect(refused.headers['www-authenticate']).toMatch(/error="invalid_token".*revoked/);
  });

  it('refuses a token to the client of a disabled user', async () => {
    await testApp.addUser({ username: 'leaver', password: 'leaver-pass-1', customerIds: ['acme'] });
    const leaver = await testApp.login('leaver', 'leaver-pass-1');
    const { clientId, clientSecret } = (
      await testApp.http
        .post('/api/clients')
        .set('Authorization', `Bearer ${leaver}`)
        .send({ name: 'BI', scopes: ['processes:read'] })
        .expect(201)
    ).body as RegisteredClient;
    const { UsersRepository } = await import('../src/auth/users/users.repository.js');
    await testApp.app.get(UsersRepository).update('leaver', { active: false });

    const error = await failureOf(
      oidc.clientCredentialsGrant(configurationOf(clientId, oidc.ClientSecretPost(clientSecret))),
    );
    expect(error).toMatchObject({ error: 'invalid_client' });
  });

  describe('the token endpoint on the wire', () => {
    let client: RegisteredClient;
    const basic = (id: string, secret: string) =>
      `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;
    const token = () => testApp.http.post('/api/oauth/token').type('form');

    beforeAll(async () => {
      client = await register(['processes:read']);
    });

    it('answers 200, not to be stored, with no refresh token', async () => {
      const response = await token()
        .set('Authorization', basic(client.clientId, client.clientSecret))
        .send({ grant_type: 'client_credentials' })
        .expect(200);

      expect(response.headers['cache-control']).toBe('no-store');
      expect(response.headers.pragma).toBe('no-cache');
      expect(Object.keys(response.body as object).sort()).toEqual([
        'access_token',
        'expires_in',
        'scope',
        'token_type',
      ]);
    });

    it.each<[string, (request: ReturnType<typeof token>) => ReturnType<typeof token>, number, string]>([
      [
        'a JSON body',
        (request) =>
          request.type('json').send({ grant_type: 'client_credentials', client_id: 'x', client_secret: 'y' }),
        400,
        'invalid_request',
      ],
      [
        'no grant_type',
        (request) => request.send({ client_id: 'x', client_secret: 'y' }),
        400,
        'invalid_request',
      ],
      [
        'another grant type',
        (request) => request.send({ grant_type: 'password', client_id: 'x', client_secret: 'y' }),
        400,
        'unsupported_grant_type',
      ],
      [
        'a repeated parameter',
        (request) => request.send('grant_type=client_credentials&grant_type=client_credentials'),
        400,
        'invalid_request',
      ],
      [
        'no client authentication',
        (request) => request.send({ grant_type: 'client_credentials' }),
        401,
        'invalid_client',
      ],
      [
        'an unknown client id',
        (request) =>
          request.send({
            grant_type: 'client_credentials',
            client_id: 'plc_unknownunknownunknow',
            client_secret: 'y',
          }),
        401,
        'invalid_client',
      ],
    ])(
      'answers %s with an RFC 6749 error object carrying the problem members',
      async (_case, build, status, error) => {
        const response = await build(token()).expect(status);

        expect(response.headers['content-type']).toMatch(/^application\/json/);
        expect(response.body).toEqual({
          error,
          error_description: expect.any(String),
          type: expect.stringMatching(/^\/problems\//),
          title: expect.any(String),
          status,
          detail: response.body.error_description,
          instance: '/api/oauth/token',
          requestId: expect.any(String),
        });
      },
    );

    it('refuses HTTP Basic and a secret in the form together', async () => {
      const response = await token()
        .set('Authorization', basic(client.clientId, client.clientSecret))
        .send({ grant_type: 'client_credentials', client_secret: client.clientSecret })
        .expect(400);
      expect(response.body.error).toBe('invalid_request');
    });

    it('challenges a client that used HTTP Basic with a wrong secret', async () => {
      const response = await token()
        .set('Authorization', basic(client.clientId, 'pls_wrong'))
        .send({ grant_type: 'client_credentials' })
        .expect(401);
      expect(response.headers['www-authenticate']).toBe('Basic realm="process-lookup"');
      expect(response.body.error).toBe('invalid_client');
    });

    it('counts failed client authentications like failed logins: the 11th from one address is 429', async () => {
      const attempt = (secret: string) =>
        token()
          .set('X-Forwarded-For', '198.51.100.23')
          .send({ grant_type: 'client_credentials', client_id: client.clientId, client_secret: secret });
      for (let failure = 0; failure < 10; failure += 1) await attempt('pls_wrong').expect(401);

      const limited = await attempt(client.clientSecret).expect(429);
      expect(limited.headers['retry-after']).toMatch(/^\d+$/);
      await token()
        .set('X-Forwarded-For', '198.51.100.24')
        .send({
          grant_type: 'client_credentials',
          client_id: client.clientId,
          client_secret: client.clientSecret,
        })
        .expect(200);
    });
  });
});
