/**
 * Client applications and the token endpoint (OAuth 2.0 client credentials), against a deployment
 * whose document has them: a system registered by the user asks for its own tokens, which open
 * exactly what their scopes allow. Every client application made is deleted at the end.
 */
import type { Problem } from './support/api-types.js';
import { RemoteApi, ROOM_WAIT_MS } from './support/remote-api.js';

/** Client applications' answers, as the document declares them where it has them. */
interface ClientApplication {
  id: string;
  name: string;
  clientId: string;
  scopes: string[];
  createdAt: string;
  lastUsedAt: string | null;
}
type CreatedClientApplication = ClientApplication & { clientSecret: string };
interface TokenAnswer {
  access_token: string;
  token_type: string;
  expires_in: number;
  scope: string;
}

/** Marks the client applications the suite makes, so that a run cleans up after one that crashed. */
const SUITE_MARK = 'remote suite';
const CLIENT_OPERATIONS = ['createClient', 'issueToken', 'getAuthorizationServerMetadata'];

const api = await RemoteApi.connect();
const served = CLIENT_OPERATIONS.every((operationId) => api.conformance.operationIds().includes(operationId));

(served ? describe : describe.skip)('client applications and their tokens', () => {
  let token: string;
  let client: CreatedClientApplication;

  const basic = (clientId: string, secret: string) =>
    `Basic ${Buffer.from(`${encodeURIComponent(clientId)}:${encodeURIComponent(secret)}`).toString('base64')}`;
  const askToken = (form: string, authorization?: string) =>
    api.post<TokenAnswer & { error?: string }>('/api/oauth/token', {
      rawBody: form,
      headers: {
        'Content-Type': 'application/x-www-form-urlencoded',
        ...(authorization !== undefined && { Authorization: authorization }),
      },
    });
  const deleteSuiteClients = async () => {
    const listed = await api.get<{ data: ClientApplication[] }>('/api/clients', { token });
    for (const made of listed.body.data.filter((candidate) => candidate.name.startsWith(SUITE_MARK))) {
      await api.request('DELETE', `/api/clients/${made.id}`, { token });
    }
  };

  beforeAll(async () => {
    token = await api.signInFor(20);
    await deleteSuiteClients();
  }, ROOM_WAIT_MS);

  afterAll(() => deleteSuiteClients());

  it('registers a client application, showing its secret once; reads and lists it without', async () => {
    const created = await api.post<CreatedClientApplication>('/api/clients', {
      token,
      body: { name: `${SUITE_MARK}: reader`, scopes: ['processes:read'] },
    });
    client = created.body;

    const read = await api.get<ClientApplication>(`/api/clients/${client.id}`, { token });
    const listed = await api.get<{ data: ClientApplication[] }>('/api/clients', { token });

    expect(created.status).toBe(201);
    expect(created.headers.location).toBe(`/api/clients/${client.id}`);
    expect(client).toMatchObject({
      scopes: ['processes:read'],
      lastUsedAt: null,
      clientSecret: expect.any(String),
    });
    expect(read.status).toBe(200);
    expect(read.body).not.toHaveProperty('clientSecret');
    expect(listed.body.data.map((candidate) => candidate.id)).toContain(client.id);
  });

  it('publishes where and how to ask for a token', async () => {
    const metadata = await api.get<Record<string, unknown>>('/.well-known/oauth-authorization-server');

    expect(metadata.status).toBe(200);
    expect(metadata.body).toMatchObject({
      token_endpoint: expect.stringMatching(/\/api\/oauth\/token$/),
      grant_types_supported: ['client_credentials'],
      token_endpoint_auth_methods_supported: expect.arrayContaining([
        'client_secret_basic',
        'client_secret_post',
      ]),
      scopes_supported: expect.arrayContaining(['processes:read', 'changes:read', 'webhooks:manage']),
    });
  });

  it('issues a token for its credentials that opens what its scope allows, and nothing else', async () => {
    const issued = await askToken(
      'grant_type=client_credentials',
      basic(client.clientId, client.clientSecret),
    );
    const bySecretInForm = await askToken(
      new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: client.clientId,
        client_secret: client.clientSecret,
      }).toString(),
    );
    const systemToken = issued.body.access_token;

    const processes = await api.get('/api/processes?pageSize=1', { token: systemToken });
    const changes = await api.get<Problem>('/api/changes?limit=1', { token: systemToken });
    const clients = await api.get<Problem>('/api/clients', { token: systemToken });

    expect(issued.status).toBe(200);
    expect(issued.headers['cache-control']).toBe('no-store');
    expect(issued.body).toMatchObject({ token_type: 'Bearer', scope: 'processes:read' });
    expect(bySecretInForm.status).toBe(200);
    expect(processes.status).toBe(200);
    expect(changes.status).toBe(403);
    expect(changes.body.type).toBe('/problems/insufficient-scope');
    expect(clients.status).toBe(403);
  });

  it('refuses a grant it does not know, and a scope the client was not given', async () => {
    const credentials = basic(client.clientId, client.clientSecret);

    const grant = await askToken('grant_type=password', credentials);
    const scope = await askToken('grant_type=client_credentials&scope=webhooks:manage', credentials);

    expect(grant.status).toBe(400);
    expect(grant.body.error).toBe('unsupported_grant_type');
    expect(scope.status).toBe(400);
    expect(scope.body.error).toBe('invalid_scope');
  });

  it('renames and re-scopes it, and rotates its secret: the old one still works for a while', async () => {
    const updated = await api.request<ClientApplication>('PATCH', `/api/clients/${client.id}`, {
      token,
      body: { name: `${SUITE_MARK}: reader and follower`, scopes: ['processes:read', 'changes:read'] },
    });
    const rotated = await api.post<{ clientSecret: string }>(`/api/clients/${client.id}/secret`, { token });

    const withNew = await askToken(
      'grant_type=client_credentials',
      basic(client.clientId, rotated.body.clientSecret),
    );
    const withOld = await askToken(
      'grant_type=client_credentials',
      basic(client.clientId, client.clientSecret),
    );

    expect(updated.status).toBe(200);
    expect(updated.body.scopes).toEqual(['processes:read', 'changes:read']);
    expect(rotated.status).toBe(200);
    expect(rotated.body.clientSecret).not.toBe(client.clientSecret);
    expect([withNew.status, withOld.status]).toEqual([200, 200]);
  });

  it('refuses a wrong secret as invalid_client, with the Basic challenge', async () => {
    const wrong = await askToken('grant_type=client_credentials', basic(client.clientId, 'not-the-secret'));

    expect(wrong.status).toBe(401);
    expect(wrong.body.error).toBe('invalid_client');
    expect(wrong.headers['www-authenticate']).toMatch(/^Basic /);
  });

  it('deletes it: 204, then a missing one', async () => {
    const deleted = await api.request('DELETE', `/api/clients/${client.id}`, { token });
    const gone = await api.get<Problem>(`/api/clients/${client.id}`, { token });

    expect(deleted.status).toBe(204);
    expect(gone.status).toBe(404);
  });
});
