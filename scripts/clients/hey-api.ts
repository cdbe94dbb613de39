// @hey-api/openapi-ts's SDK with its fetch client; the token through the client's `auth` hook.
import { client } from '../../generated/clients/hey-api/client.gen.js';
import { getProcess, listProcesses, login } from '../../generated/clients/hey-api/sdk.gen.js';
import { nextLink, runScenario } from './scenario.js';

client.setConfig({ baseUrl: process.env.BASE_URL });
const withToken = (token: string) => ({ auth: () => token });

await runScenario('@hey-api/openapi-ts', {
  async login(username, password) {
    const { data, error } = await login({ body: { username, password } });
    if (data === undefined) throw new Error(`login refused: ${error.title}`);
    return data.accessToken;
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
