// openapi-typescript's types with openapi-fetch, its defaults untouched.
import createClient from 'openapi-fetch';
import type { paths } from '../../generated/clients/openapi-typescript/openapi.js';
import { nextLink, runScenario } from './scenario.js';

const api = createClient<paths>({ baseUrl: process.env.BASE_URL });
const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

await runScenario('openapi-typescript + openapi-fetch', {
  async login(username, password) {
    const { data, error } = await api.POST('/api/auth/login', { body: { username, password } });
    if (data === undefined) throw new Error(`login refused: ${error.title}`);
    return data.accessToken;
  },
  async listByStatus(token, statuses, pageSize, page) {
    const { data, response } = await api.GET('/api/processes', {
      params: { query: { status: statuses as ['IN_TRANSIT'], pageSize, page } },
      headers: bearer(token),
    });
    if (data === undefined) throw new Error(`list refused: ${response.status}`);
    return {
      numeros: data.data.map((item) => item.numero),
      totalItems: data.meta.totalItems,
      next: nextLink(response.headers.get('Link')),
    };
  },
  async getProcess(token, numero, ifNoneMatch) {
    const { error, response } = await api.GET('/api/processes/{numero}', {
      params: { path: { numero } },
      headers: { ...bearer(token), ...(ifNoneMatch !== undefined && { 'If-None-Match': ifNoneMatch }) },
    });
    return { status: response.status, etag: response.headers.get('ETag'), problemType: error?.type };
  },
});
