// @hey-api/openapi-ts's SDK with its fetch client; the token through the client's `auth` hook. The
// scenario runs as a system would: the user registers a client application, whose client id and
// secret get the token (OAuth 2.0 client credentials) the rest of the scenario uses.
import { client } from '../../generated/clients/hey-api/client.gen.js';
import {
  createClient,
  getProcess,
  issueToken,
  listProcesses,
  login,
} from '../../generated/clients/hey-api/sdk.gen.js';
import { nextLink, runScenario } from './scenario.js';

client.setConfig({ baseUrl: process.env.BASE_URL });
const withToken = (token: string) => ({ auth: () => token });

await runScenario('@hey-api/openapi-ts with client credentials', {
  async login(username, password) {
    const signedIn = await login({ body: { username, password } });
    if (signedIn.data === undefined) throw new Error(`login refused: ${signedIn.error.title}`);
    const registered = await createClient({
      ...withToken(signedIn.data.accessToken),
      body: { name: 'generated-client check', scopes: ['processes:read'] },
    });
    if (registered.data === undefined) throw new Error(`client refused: ${registered.error.title}`);
    const issued = await issueToken({
      body: {
        grant_type: 'client_credentials',
        client_id: registered.data.clientId,
        client_secret: registered.data.clientSecret,
      },
    });
    if (issued.data === undefined) throw new Error(`token refused: ${issued.response.status}`);
    return issued.data.access_token;
  },
  async listByStatus(token, statuses, pageSize, page) {
    const { data, response } = await listProcesses({
      ...withToken(token),
      query: { status: statuses as Array<'IN_TRANSIT'>, pageSize, page },
    });
    if (data === undefined) throw new Error(`list refused: ${response.status}`);
    return {
      numeros: data.data.map((item) => item.numero),
      totalItems: data.meta.totalItems,
      next: nextLink(response.headers.get('Link')),
    };
  },
  async getProcess(token, numero, ifNoneMatch) {
    const { error, response } = await getProcess({
      ...withToken(token),
      path: { numero },
      ...(ifNoneMatch !== undefined && { headers: { 'If-None-Match': ifNoneMatch } }),
    });
    return { status: response.status, etag: response.headers.get('ETag'), problemType: error?.type };
  },
});
