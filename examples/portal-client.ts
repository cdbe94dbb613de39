// A portal's use of the API through the client generated from openapi.json
// (`npm run generate:client` writes generated/openapi.d.ts): log in, list with filters, follow the
// `Link` header to the next page, and read a problem. Only `openapi-fetch` and the fetch standard.
import createClient, { type Middleware } from 'openapi-fetch';
import type { components, paths } from '../generated/openapi.js';

export type ProcessList = components['schemas']['ProcessListResponseDto'];
export type Problem = components['schemas']['ProblemResponseDto'];

export interface ExampleOutcome {
  totalItems: number;
  firstPage: string[];
  nextPage: string[];
  problem: Pick<Problem, 'type' | 'title' | 'status'>;
}

/** Reads `rel` from an RFC 8288 `Link` header: `<url>; rel="next", <url>; rel="last"`. */
export function linkTarget(header: string | null, rel: string): string | undefined {
  for (const link of header?.split(',') ?? []) {
    const match = /<([^>]*)>\s*;\s*rel="?([^";]+)"?/.exec(link.trim());
    if (match?.[2] === rel) return match[1];
  }
  return undefined;
}

export async function runExample(
  baseUrl: string,
  credentials: { username: string; password: string },
): Promise<ExampleOutcome> {
  // openapi-fetch's defaults: several values of a filter travel repeated (`status=A&status=B`).
  const api = createClient<paths>({ baseUrl });

  const login = await api.POST('/api/auth/login', { body: credentials });
  if (login.error !== undefined) throw new Error(`login refused: ${login.error.title}`);
  const authorization: Middleware = {
    onRequest: ({ request }) => {
      request.headers.set('Authorization', `Bearer ${login.data.accessToken}`);
      return request;
    },
  };
  api.use(authorization);

  const first = await api.GET('/api/processes', {
    params: { query: { status: ['IN_TRANSIT', 'ARRIVED'], pageSize: 2, sort: 'numero' } },
  });
  if (first.error !== undefined) throw new Error(`list refused: ${first.error.detail ?? first.error.title}`);

  // The server writes the next page's address, filters included: follow it as it is.
  const next = linkTarget(first.response.headers.get('Link'), 'next');
  let nextPage: ProcessList['data'] = [];
  if (next !== undefined) {
    const response = await fetch(new URL(next, baseUrl), {
      headers: { Authorization: `Bearer ${login.data.accessToken}` },
    });
    nextPage = ((await response.json()) as ProcessList).data;
  }

  // Every error is a problem document: its `type` says what happened, `detail` says it to a person.
  const missing = await api.GET('/api/processes/{numero}', {
    params: { path: { numero: 'IMP-0000-000000' } },
  });
  if (missing.error === undefined) throw new Error('expected a problem for a process that does not exist');

  return {
    totalItems: first.data.meta.totalItems,
    firstPage: first.data.data.map((item) => item.numero),
    nextPage: nextPage.map((item) => item.numero),
    problem: { type: missing.error.type, title: missing.error.title, status: missing.error.status },
  };
}
