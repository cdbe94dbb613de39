/**
 * Client applications and the token endpoint (OAuth 2.0 client credentials), against a deployment
 * whose document has them: a system registered by the user asks for its own tokens, which open
 * exactly what their scopes allow. Every client application made is deleted at the end.
 */
import type {
  ClientApplication,
  CreatedClientApplication,
  Problem,
  TokenAnswer,
} from './support/api-types.js';
import { RemoteApi, ROOM_WAIT_MS, type Answer } from './support/remote-api.js';
import { remoteConfig } from './support/remote-config.js';

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
    expect(created.headers['cache-control']).toBe('no-store');
    expect(client).toMatchObject({
      scopes: ['processes:read'],
      lastUsedAt: null,
      clientId: expect.stringMatching(/^plc_[A-Za-z0-9_-]{22}$/),
      clientSecret: expect.stringMatching(/^pls_[A-Za-z0-9_-]{43}$/),
    });
    const { clientSecret: _shownOnce, ...withoutSecret } = client;
    expect(read.status).toBe(200);
    expect(read.body).toEqual(withoutSecret);
    expect(listed.body.data).toContainEqual(withoutSecret);
    expect(JSON.stringify(listed.body)).not.toContain('clientSecret');
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
    const managing = [
      await api.get<Problem>('/api/clients', { token: systemToken }),
      await api.post<Problem>('/api/clients', {
        token: systemToken,
        body: { name: `${SUITE_MARK}: never`, scopes: ['processes:read'] },
      }),
      await api.get<Problem>(`/api/clients/${client.id}`, { token: systemToken }),
      await api.post<Problem>(`/api/clients/${client.id}/secret`, { token: systemToken }),
      await api.request<Problem>('DELETE', `/api/clients/${client.id}`, { token: systemToken }),
    ];
    const used = await api.get<ClientApplication>(`/api/clients/${client.id}`, { token });

    expect(issued.status).toBe(200);
    expect(issued.headers['cache-control']).toBe('no-store');
    expect(issued.body).toMatchObject({ token_type: 'Bearer', scope: 'processes:read' });
    expect(bySecretInForm.status).toBe(200);
    expect(processes.status).toBe(200);
    expect(changes.status).toBe(403);
    expect(changes.body.type).toBe('/problems/insufficient-scope');
    for (const answer of managing) {
      expect([answer.status, answer.body.type]).toEqual([403, '/problems/insufficient-scope']);
      expect(answer.headers['www-authenticate']).toBe(
        'Bearer realm="process-lookup", error="insufficient_scope"',
      );
    }
    expect(used.body.lastUsedAt).toEqual(expect.any(String));
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

  it('answers a token not to be stored, with nothing but the token, its type, lifetime and scope', async () => {
    const issued = await askToken(
      'grant_type=client_credentials',
      basic(client.clientId, client.clientSecret),
    );

    expect(issued.status).toBe(200);
    expect(issued.headers.pragma).toBe('no-cache');
    expect(Object.keys(issued.body).sort()).toEqual(['access_token', 'expires_in', 'scope', 'token_type']);
  });

  it.each<[string, () => Promise<Answer<TokenAnswer & { error?: string }>>, number, string]>([
    [
      'a JSON body',
      () =>
        api.post('/api/oauth/token', {
          body: { grant_type: 'client_credentials', client_id: client.clientId, client_secret: 'y' },
        }),
      400,
      'invalid_request',
    ],
    [
      'no grant_type',
      () => askToken('', basic(client.clientId, client.clientSecret)),
      400,
      'invalid_request',
    ],
    [
      'a repeated parameter',
      () =>
        askToken(
          'grant_type=client_credentials&grant_type=client_credentials',
          basic(client.clientId, client.clientSecret),
        ),
      400,
      'invalid_request',
    ],
    [
      'HTTP Basic and a secret in the form together',
      () =>
        askToken(
          `grant_type=client_credentials&client_secret=${encodeURIComponent(client.clientSecret)}`,
          basic(client.clientId, client.clientSecret),
        ),
      400,
      'invalid_request',
    ],
    ['no client authentication', () => askToken('grant_type=client_credentials'), 401, 'invalid_client'],
    [
      'an unknown client id',
      () => askToken('grant_type=client_credentials&client_id=plc_unknownunknownunknow&client_secret=y'),
      401,
      'invalid_client',
    ],
  ])('answers %s with an OAuth error object that is a problem too', async (_case, ask, status, error) => {
    const answer = await ask();

    expect(answer.status).toBe(status);
    expect(answer.headers['content-type']).toMatch(/^application\/json/);
    expect(answer.body).toEqual({
      error,
      error_description: expect.any(String),
      type: expect.stringMatching(/^\/problems\//),
      title: expect.any(String),
      status,
      detail: (answer.body as { error_description?: string }).error_description,
      instance: '/api/oauth/token',
      requestId: expect.any(String),
    });
  });

  it.each([
    ['no name', { scopes: ['processes:read'] }, { name: 'name', message: 'is required' }],
    [
      'an empty name',
      { name: '', scopes: ['processes:read'] },
      { name: 'name', message: expect.any(String) },
    ],
    ['no scopes', { name: SUITE_MARK }, { name: 'scopes', message: 'is required' }],
    ['no scope in scopes', { name: SUITE_MARK, scopes: [] }, { name: 'scopes', message: expect.any(String) }],
    [
      'an unknown scope',
      { name: SUITE_MARK, scopes: ['admin'] },
      { name: 'scopes', message: 'each must be one of processes:read, changes:read, webhooks:manage' },
    ],
    [
      'a member it does not know',
      { name: SUITE_MARK, scopes: ['processes:read'], secret: 'mine' },
      { name: 'secret' },
    ],
  ])('refuses a registration with %s, naming the field', async (_case, body, error) => {
    const answer = await api.post<Problem>('/api/clients', { token, body });

    expect(answer.status).toBe(400);
    expect(answer.body.errors).toEqual([expect.objectContaining({ in: 'body', ...error })]);
  });

  it('allows a user 10 client applications, 409 beyond', async () => {
    const held = (await api.get<{ data: ClientApplication[] }>('/api/clients', { token })).body.data.length;
    for (let index = held; index < 10; index++) {
      await api.post('/api/clients', {
        token,
        body: { name: `${SUITE_MARK}: filler`, scopes: ['processes:read'] },
      });
    }

    const beyond = await api.post<Problem>('/api/clients', {
      token,
      body: { name: `${SUITE_MARK}: one more`, scopes: ['processes:read'] },
    });

    expect(beyond.status).toBe(409);
    expect(beyond.body).toMatchObject({ type: '/problems/client-limit-reached', status: 409 });
    const listed = await api.get<{ data: ClientApplication[] }>('/api/clients', { token });
    for (const filler of listed.body.data.filter((made) => made.name === `${SUITE_MARK}: filler`)) {
      await api.request('DELETE', `/api/clients/${filler.id}`, { token });
    }
  });

  (remoteConfig.otherUser === null ? it.skip : it)(
    'shows another user’s client application, or a malformed id, as a missing one, and lets them do nothing to it',
    async () => {
      const other = (await api.signIn(remoteConfig.otherUser!)).accessToken;
      const at = `/api/clients/${client.id}`;

      const answers = [
        await api.get<Problem>(at, { token: other }),
        await api.request<Problem>('PATCH', at, { token: other, body: { name: 'x' } }),
        await api.post<Problem>(`${at}/secret`, { token: other }),
        await api.request<Problem>('DELETE', at, { token: other }),
        await api.get<Problem>('/api/clients/not-a-uuid', { token }),
      ];
      const own = await api.get<ClientApplication>(at, { token });

      expect(answers.map((answer) => answer.status)).toEqual([404, 404, 404, 404, 404]);
      expect(own.status).toBe(200);
    },
  );

  it('deletes it: 204, then a missing one, whose secret gets no token and whose tokens are revoked', async () => {
    const credentials = basic(client.clientId, client.clientSecret);
    const systemToken = (await askToken('grant_type=client_credentials', credentials)).body.access_token;
    const before = await api.get('/api/processes?pageSize=1', { token: systemToken });

    const deleted = await api.request('DELETE', `/api/clients/${client.id}`, { token });
    const gone = await api.get<Problem>(`/api/clients/${client.id}`, { token });
    const refused = await askToken('grant_type=client_credentials', credentials);
    const revoked = await api.get<Problem>('/api/processes?pageSize=1', { token: systemToken });

    expect(before.status).toBe(200);
    expect(deleted.status).toBe(204);
    expect(gone.status).toBe(404);
    expect(refused.status).toBe(401);
    expect(revoked.status).toBe(401);
    expect(revoked.headers['www-authenticate']).toMatch(/error="invalid_token".*revoked/);
  });
});
