/**
 * A black-box, read-only check of a running deployment, for QA and for CI against `npm start`:
 *
 *   E2E_BASE_URL=http://localhost:3000 E2E_USERNAME=acme E2E_PASSWORD=acme-demo-2026 \
 *   E2E_OTHER_USERNAME=globex E2E_OTHER_PASSWORD=globex-demo-2026 npm run test:e2e:remote
 *
 * It signs in and reads; it writes nothing and costs the deployment one failed login. Every answer
 * is checked against the OpenAPI document the deployment itself serves. The second user, when
 * given, must belong to another customer: the suite then shows neither sees the other's processes.
 */
import { OpenApiConformance, type OpenApiDocument } from '../support/openapi-conformance.js';

const BASE_URL = requiredEnv('E2E_BASE_URL').replace(/\/+$/, '');
const USER = { username: requiredEnv('E2E_USERNAME'), password: requiredEnv('E2E_PASSWORD') };
const OTHER_USER =
  process.env.E2E_OTHER_USERNAME === undefined
    ? null
    : { username: process.env.E2E_OTHER_USERNAME, password: requiredEnv('E2E_OTHER_PASSWORD') };

function requiredEnv(name: string): string {
  const value = process.env[name];
  if (value === undefined || value === '') {
    throw new Error(
      `${name} is not set: the remote suite needs the deployment's URL and a user (see its header)`,
    );
  }
  return value;
}

interface Answer {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

interface ProcessSummary {
  numero: string;
  summary: unknown;
  follow: unknown[];
  lastFollow: unknown;
}

let conformance: OpenApiConformance;

async function call(
  method: string,
  path: string,
  init: { token?: string; headers?: Record<string, string>; body?: unknown } = {},
): Promise<Answer> {
  const response = await fetch(`${BASE_URL}${path}`, {
    method,
    headers: {
      ...(init.token !== undefined && { Authorization: `Bearer ${init.token}` }),
      ...(init.body !== undefined && { 'Content-Type': 'application/json' }),
      ...init.headers,
    },
    ...(init.body !== undefined && { body: JSON.stringify(init.body) }),
  });
  const text = await response.text();
  const type = response.headers.get('content-type') ?? '';
  const answer: Answer = {
    status: response.status,
    headers: Object.fromEntries(response.headers),
    body: text !== '' && /json/.test(type) ? JSON.parse(text) : text,
  };
  conformance?.assertConforms(method, path, answer);
  return answer;
}

async function signIn(user: { username: string; password: string }): Promise<string> {
  const answer = await call('POST', '/api/auth/login', { body: user });
  expect(answer.status).toBe(200);
  return (answer.body as { accessToken: string }).accessToken;
}

function nextLink(link: string | undefined): string | null {
  const next = link?.split(',').find((part) => /rel="?next"?/.test(part));
  const url = next?.match(/<([^>]+)>/)?.[1];
  return url === undefined ? null : new URL(url, BASE_URL).pathname + new URL(url, BASE_URL).search;
}

describe(`the deployment at ${BASE_URL}`, () => {
  let token: string;
  let firstPage: ProcessSummary[];

  beforeAll(async () => {
    const document = await fetch(`${BASE_URL}/docs/openapi.json`);
    expect(document.status).toBe(200);
    conformance = new OpenApiConformance((await document.json()) as OpenApiDocument);
    token = await signIn(USER);
  });

  it('is live and ready', async () => {
    expect((await call('GET', '/health/live')).status).toBe(200);
    expect((await call('GET', '/health/ready')).status).toBe(200);
  });

  it('refuses a wrong password and a missing token with problem details', async () => {
    const wrong = await call('POST', '/api/auth/login', {
      body: { ...USER, password: `${USER.password}-wrong` },
    });
    const anonymous = await call('GET', '/api/processes');

    for (const answer of [wrong, anonymous]) {
      expect(answer.status).toBe(401);
      expect(answer.headers['content-type']).toMatch(/^application\/problem\+json/);
    }
  });

  it('lists processes, each with its summary and whole follow-up, and pages by Link', async () => {
    const answer = await call('GET', '/api/processes?pageSize=5', { token });

    expect(answer.status).toBe(200);
    firstPage = (answer.body as { data: ProcessSummary[] }).data;
    expect(firstPage.length).toBeGreaterThan(0);
    for (const item of firstPage) {
      expect(item).toEqual(
        expect.objectContaining({ numero: expect.any(String), summary: expect.anything() }),
      );
      expect(Array.isArray(item.follow)).toBe(true);
    }
    const next = nextLink(answer.headers.link);
    if (next !== null) {
      const second = await call('GET', next, { token });
      expect(second.status).toBe(200);
      const seen = new Set(firstPage.map((item) => item.numero));
      expect((second.body as { data: ProcessSummary[] }).data.some((item) => seen.has(item.numero))).toBe(
        false,
      );
    }
  });

  it('answers 304 to a list revalidated with its ETag', async () => {
    const first = await call('GET', '/api/processes?pageSize=5', { token });
    const again = await call('GET', '/api/processes?pageSize=5', {
      token,
      headers: { 'If-None-Match': first.headers.etag ?? '' },
    });

    expect(first.headers.etag).toBeDefined();
    expect(again.status).toBe(304);
  });

  it('answers the detail of a listed process, and 404 for an unknown one', async () => {
    const numero = firstPage[0]!.numero;
    const detail = await call('GET', `/api/processes/${encodeURIComponent(numero)}`, { token });
    const unknown = await call('GET', '/api/processes/NO-SUCH-PROCESS-0', { token });

    expect(detail.status).toBe(200);
    expect(detail.body).toEqual(expect.objectContaining({ numero }));
    expect(unknown.status).toBe(404);
    expect(unknown.headers['content-type']).toMatch(/^application\/problem\+json/);
  });

  it('refuses a bad parameter with a 400 naming it', async () => {
    const answer = await call('GET', '/api/processes?pageSize=0', { token });

    expect(answer.status).toBe(400);
    expect(JSON.stringify(answer.body)).toContain('pageSize');
  });

  it('serves a page of the change feed', async () => {
    const answer = await call('GET', '/api/changes?limit=5', { token });

    expect(answer.status).toBe(200);
    expect(Array.isArray((answer.body as { data: unknown[] }).data)).toBe(true);
  });

  it('answers the retired tracking route with 410 Gone', async () => {
    expect((await call('GET', '/api/tracking')).status).toBe(410);
  });

  (OTHER_USER === null ? it.skip : it)('shows another customer none of this one’s processes', async () => {
    const otherToken = await signIn(OTHER_USER!);
    const others = await call('GET', '/api/processes?pageSize=100', { token: otherToken });
    const mine = new Set(firstPage.map((item) => item.numero));

    expect((others.body as { data: ProcessSummary[] }).data.some((item) => mine.has(item.numero))).toBe(
      false,
    );
    for (const numero of mine) {
      expect(
        (await call('GET', `/api/processes/${encodeURIComponent(numero)}`, { token: otherToken })).status,
      ).toBe(404);
    }
  });
});
