// orval's fetch client. It asks for paths relative to the page, as a browser would; here they
// are resolved against BASE_URL.
import { getProcess, listProcesses, login } from '../../generated/clients/orval/api.js';
import { nextLink, runScenario } from './scenario.js';

const fetchFromPage = globalThis.fetch;
globalThis.fetch = (input, init) =>
  fetchFromPage(typeof input === 'string' ? new URL(input, process.env.BASE_URL) : input, init);
const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

await runScenario('orval', {
  async login(username, password) {
    const answer = await login({ username, password });
    if (answer.status !== 200) throw new Error(`login refused: ${answer.data.title}`);
    return answer.data.accessToken;
  },
  async listByStatus(token, statuses, pageSize, page) {
    const answer = await listProcesses(
      { status: statuses as Array<'IN_TRANSIT'>, pageSize, page },
      { headers: bearer(token) },
    );
    if (answer.status !== 200) throw new Error(`list refused: ${answer.status}`);
    return {
      numeros: answer.data.data.map((item) => item.numero),
      totalItems: answer.data.meta.totalItems,
      next: nextLink(answer.headers.get('Link')),
    };
  },
  async getProcess(token, numero, ifNoneMatch) {
    const answer = await getProcess(numero, {
      headers: { ...bearer(token), ...(ifNoneMatch !== undefined && { 'If-None-Match': ifNoneMatch }) },
    });
    return {
      status: answer.status,
      etag: answer.headers.get('ETag'),
      problemType: answer.status === 404 ? answer.data.type : undefined,
    };
  },
});
