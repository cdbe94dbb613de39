/**
 * A system configured with nothing but a client id and secret, through an OAuth library nobody on
 * the team wrote (openid-client), against the deployment. Every client application and webhook
 * subscription made is deleted at the end.
 */
import * as oidc from 'openid-client';
import type { ClientApplication, CreatedClientApplication, Problem } from './support/api-types.js';
import { RemoteApi, ROOM_WAIT_MS } from './support/remote-api.js';
import { SuiteSubscriptions } from './support/suite-subscriptions.js';
import { WebhookReceiver } from './support/webhook-receiver.js';

/** Marks the client applications this file makes, so that a run cleans up after one that crashed. */
const SUITE_MARK = 'remote suite: openid-client';
const ALL_SCOPES = ['processes:read', 'changes:read', 'webhooks:manage'];

const api = await RemoteApi.connect();
const served = ['createClient', 'issueToken', 'getAuthorizationServerMetadata'].every((operationId) =>
  api.conformance.operationIds().includes(operationId),
);

(served ? describe : describe.skip)('client credentials through openid-client', () => {
  let token: string;
  let metadata: oidc.ServerMetadata;
  let everything: CreatedClientApplication;
  let readerOnly: CreatedClientApplication;

  const register = async (scopes: string[]): Promise<CreatedClientApplication> => {
    const answer = await api.post<CreatedClientApplication>('/api/clients', {
      token,
      body: { name: `${SUITE_MARK} ${scopes.join(' ')}`, scopes },
    });
    if (answer.status !== 201) throw new Error(`registering a client answered ${answer.status}`);
    return answer.body;
  };
  const deleteSuiteClients = async () => {
    const listed = await api.get<{ data: ClientApplication[] }>('/api/clients', { token });
    for (const made of listed.body.data.filter((client) => client.name.startsWith(SUITE_MARK))) {
      await api.request('DELETE', `/api/clients/${made.id}`, { token });
    }
  };
  /** openid-client configured from the served metadata alone; plain HTTP allowed for a local deployment. */
  const configurationOf = (clientId: string, clientAuth: oidc.ClientAuth) => {
    const configuration = new oidc.Configuration(metadata, clientId, undefined, clientAuth);
    if (new URL(metadata.token_endpoint!).protocol === 'http:') oidc.allowInsecureRequests(configuration);
    return configuration;
  };
  const failureOf = (promise: Promise<unknown>) =>
    promise.then(
      () => {
        throw new Error('expected the grant to fail');
      },
      (error: unknown) => error,
    );

  beforeAll(async () => {
    token = await api.signInFor(30);
    await deleteSuiteClients();
    metadata = (await api.get<oidc.ServerMetadata>('/.well-known/oauth-authorization-server')).body;
    everything = await register(ALL_SCOPES);
    readerOnly = await register(['processes:read']);
  }, ROOM_WAIT_MS);

  afterAll(() => deleteSuiteClients());

  it('publishes metadata the library takes as it is (RFC 8414)', () => {
    expect(metadata).toEqual({
      issuer: expect.any(String),
      token_endpoint: expect.stringMatching(/^https?:\/\/.+\/api\/oauth\/token$/),
      grant_types_supported: ['client_credentials'],
      token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
      scopes_supported: ALL_SCOPES,
    });
  });

  it.each([
    ['client_secret_basic', oidc.ClientSecretBasic],
    ['client_secret_post', oidc.ClientSecretPost],
  ])('gets a token with %s and reads the list and the feed with it', async (_method, clientAuth) => {
    const tokens = await oidc.clientCredentialsGrant(
      configurationOf(everything.clientId, clientAuth(everything.clientSecret)),
    );

    expect(tokens.token_type).toBe('bearer');
    expect(tokens.expires_in).toEqual(expect.any(Number));
    expect(tokens.scope).toBe(ALL_SCOPES.join(' '));
    expect(tokens.refresh_token).toBeUndefined();
    expect((await api.get('/api/processes?pageSize=1', { token: tokens.access_token })).status).toBe(200);
    expect((await api.get('/api/changes?limit=1', { token: tokens.access_token })).status).toBe(200);
  });

  it('narrows the token to the scope asked for; a route needing another answers 403 naming it', async () => {
    const configuration = configurationOf(
      everything.clientId,
      oidc.ClientSecretBasic(everything.clientSecret),
    );
    const tokens = await oidc.clientCredentialsGrant(configuration, { scope: 'processes:read' });

    const refused = await api.get<Problem>('/api/changes?limit=1', { token: tokens.access_token });

    expect(tokens.scope).toBe('processes:read');
    expect(refused.status).toBe(403);
    expect(refused.headers['www-authenticate']).toBe(
      'Bearer realm="process-lookup", error="insufficient_scope", scope="changes:read"',
    );
    expect(refused.body).toMatchObject({
      type: '/problems/insufficient-scope',
      detail: 'This route needs the scope changes:read, which the token lacks',
    });
  });

  it('issues an RFC 9068 token: typ at+jwt, sub and client_id the client id, its scope, no sign-in', async () => {
    const tokens = await oidc.clientCredentialsGrant(
      configurationOf(readerOnly.clientId, oidc.ClientSecretPost(readerOnly.clientSecret)),
    );
    const [header, payload] = tokens.access_token
      .split('.')
      .slice(0, 2)
      .map((part) => JSON.parse(Buffer.from(part, 'base64url').toString()) as Record<string, unknown>);

    expect(header).toEqual({ alg: 'HS256', typ: 'at+jwt' });
    expect(payload).toEqual({
      sub: readerOnly.clientId,
      client_id: readerOnly.clientId,
      scope: 'processes:read',
      iss: metadata.issuer,
      aud: expect.any(String),
      iat: expect.any(Number),
      exp: (payload!.iat as number) + tokens.expires_in!,
      jti: expect.any(String),
    });
  });

  it('answers a wrong secret with invalid_client, which the library reads', async () => {
    const error = await failureOf(
      oidc.clientCredentialsGrant(configurationOf(readerOnly.clientId, oidc.ClientSecretPost('pls_wrong'))),
    );

    expect(error).toBeInstanceOf(oidc.ResponseBodyError);
    expect(error).toMatchObject({ error: 'invalid_client', status: 401 });
  });

  it('answers a scope the client lacks with invalid_scope, which the library reads', async () => {
    const error = await failureOf(
      oidc.clientCredentialsGrant(
        configurationOf(readerOnly.clientId, oidc.ClientSecretBasic(readerOnly.clientSecret)),
        { scope: 'processes:read webhooks:manage' },
      ),
    );

    expect(error).toMatchObject({
      error: 'invalid_scope',
      error_description: 'This client may not ask for: webhooks:manage',
      status: 400,
    });
  });

  it('manages webhooks as the user who registered it: they are that user’s webhooks', async () => {
    const { access_token } = await oidc.clientCredentialsGrant(
      configurationOf(everything.clientId, oidc.ClientSecretBasic(everything.clientSecret)),
      { scope: 'webhooks:manage' },
    );
    const receiver = await WebhookReceiver.start();
    const subscriptions = new SuiteSubscriptions(api, access_token);
    try {
      const created = await subscriptions.create({ url: receiver.urlFor('oauth-library') });

      const listed = await api.get<{ data: Array<{ id: string }> }>('/api/webhooks', { token });
      expect(listed.body.data.map((webhook) => webhook.id)).toContain(created.id);
    } finally {
      await subscriptions.deleteAll();
      await receiver.close();
    }
  });
});
