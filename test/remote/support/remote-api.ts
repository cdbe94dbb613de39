import { OpenApiConformance, type OpenApiDocument } from '../../support/openapi-conformance.js';
import { SseClient } from '../../support/sse-client.js';
import type { Problem } from './api-types.js';
import { recordExercised } from './exercised-operations.js';
import { remoteConfig, type Credentials } from './remote-config.js';

/** An answer as the suite reads it: headers by lower-case name, JSON bodies parsed. */
export interface Answer<Body = unknown> {
  status: number;
  headers: Record<string, string>;
  body: Body;
}

export interface RequestOptions {
  token?: string;
  headers?: Record<string, string>;
  /** Sent as JSON. */
  body?: unknown;
  /** Sent as it is, with the headers given (for bodies that are not JSON). */
  rawBody?: string;
}

export interface SignIn {
  accessToken: string;
  refreshToken: string;
  expiresIn: number;
  refreshExpiresIn: number;
  tokenType: string;
}

/** Requests left in a user's window below which the suite waits for the next one. */
const RATE_LIMIT_RESERVE = 60;
/** The longest a wait for the next rate-limit window takes (a minute), and a margin. */
export const ROOM_WAIT_MS = 75_000;
const RATE_LIMITED = /^\/api\/(processes|changes)/;

/**
 * The suite's only way to the deployment: plain HTTP, and every answer checked against the OpenAPI
 * document the deployment serves (status, content type, body schema, documented headers) and
 * recorded as an exercise of its operation. It keeps each user clear of the per-user rate limit
 * (it reads `RateLimit` and waits for the window when few requests are left), so that the suite
 * never locks the users it borrows out of the deployment.
 */
export class RemoteApi {
  readonly baseUrl = remoteConfig.baseUrl;
  private readonly windows = new Map<string, { remaining: number; resetsAt: number }>();

  private constructor(readonly conformance: OpenApiConformance) {}

  static async connect(): Promise<RemoteApi> {
    const response = await fetch(`${remoteConfig.baseUrl}/docs/openapi.json`);
    if (response.status !== 200) {
      throw new Error(
        `${remoteConfig.baseUrl}/docs/openapi.json answered ${response.status}: is E2E_BASE_URL right?`,
      );
    }
    return new RemoteApi(new OpenApiConformance((await response.json()) as OpenApiDocument));
  }

  async request<Body = unknown>(
    method: string,
    path: string,
    options: RequestOptions = {},
  ): Promise<Answer<Body>> {
    await this.keepClearOfTheRateLimit(path, options.token);
    const response = await fetch(`${this.baseUrl}${path}`, {
      method,
      headers: {
        ...(options.token !== undefined && { Authorization: `Bearer ${options.token}` }),
        ...(options.body !== undefined && { 'Content-Type': 'application/json' }),
        ...options.headers,
      },
      ...(options.body !== undefined && { body: JSON.stringify(options.body) }),
      ...(options.rawBody !== undefined && { body: options.rawBody }),
      redirect: 'manual',
    });
    const text = await response.text();
    const headers = Object.fromEntries(response.headers);
    const answer: Answer<Body> = {
      status: response.status,
      headers,
      body: (text !== '' && /json/.test(headers['content-type'] ?? '') ? JSON.parse(text) : text) as Body,
    };
    this.check(method, path, answer, options.token);
    return answer;
  }

  get<Body = unknown>(path: string, options?: RequestOptions): Promise<Answer<Body>> {
    return this.request<Body>('GET', path, options);
  }

  post<Body = unknown>(path: string, options?: RequestOptions): Promise<Answer<Body>> {
    return this.request<Body>('POST', path, options);
  }

  /** Signs in; fails the test unless the deployment answers 200. */
  async signIn(user: Credentials = remoteConfig.user): Promise<SignIn> {
    const answer = await this.post<SignIn>('/api/auth/login', { body: user });
    if (answer.status !== 200) {
      throw new Error(
        `signing in as ${user.username} answered ${answer.status}: ${JSON.stringify(answer.body)}`,
      );
    }
    return answer.body;
  }

  /**
   * Opens the change stream as a portal does (fetch, since EventSource cannot send Authorization).
   * Its status and headers are checked and recorded like any answer; a refusal's body is read, an
   * open stream's events are the caller's to wait for (and the stream the caller's to close).
   */
  async openStream(query: string, token: string | undefined, headers: Record<string, string> = {}) {
    const path = `/api/changes/stream${query}`;
    await this.keepClearOfTheRateLimit(path, token);
    const controller = new AbortController();
    const response = await fetch(`${this.baseUrl}${path}`, {
      headers: { ...(token !== undefined && { Authorization: `Bearer ${token}` }), ...headers },
      signal: controller.signal,
    });
    const open = response.status === 200;
    const answer: Answer<Problem | ''> = {
      status: response.status,
      headers: Object.fromEntries(response.headers),
      body: open ? '' : ((await response.json()) as Problem),
    };
    const stream = open ? SseClient.reading(response, controller) : null;
    try {
      this.check('GET', path, answer, token);
    } catch (violation) {
      stream?.close();
      throw violation;
    }
    return { ...answer, stream };
  }

  /**
   * Waits, when need be, for the user's rate-limit window to have room for `requests` more, so that
   * a test does not stop half-way for the window to pass (a hook that calls it needs
   * {@link ROOM_WAIT_MS} of timeout). Asks the feed once to learn the window when it has no answer yet.
   */
  async roomFor(requests: number, token: string): Promise<void> {
    if (!this.windows.has(subjectOf(token))) await this.get('/api/changes?limit=1', { token });
    await this.untilWindowHas(requests + RATE_LIMIT_RESERVE, token);
  }

  /** Signs the suite's user in, with room in its rate-limit window for the `requests` a file makes. */
  async signInFor(requests: number): Promise<string> {
    const { accessToken } = await this.signIn();
    await this.roomFor(requests, accessToken);
    return accessToken;
  }

  private check(method: string, path: string, answer: Answer, token: string | undefined): void {
    this.remember(path, token, answer.headers);
    const operationId = this.conformance.operationIdOf(method, path);
    if (operationId !== undefined) recordExercised({ operationId, status: answer.status });
    this.conformance.assertConforms(method, path, answer);
  }

  private remember(path: string, token: string | undefined, headers: Record<string, string>): void {
    const window = /r=(\d+);t=(\d+)/.exec(headers.ratelimit ?? '');
    if (token === undefined || !RATE_LIMITED.test(path) || window === null) return;
    this.windows.set(subjectOf(token), {
      remaining: Number(window[1]),
      resetsAt: Date.now() + Number(window[2]) * 1000,
    });
  }

  private async keepClearOfTheRateLimit(path: string, token: string | undefined): Promise<void> {
    if (token !== undefined && RATE_LIMITED.test(path)) await this.untilWindowHas(RATE_LIMIT_RESERVE, token);
  }

  /** Waits for the user's next window unless the one it knows has more than `requests` left. */
  private async untilWindowHas(requests: number, token: string): Promise<void> {
    const window = this.windows.get(subjectOf(token));
    if (window === undefined || window.remaining > requests) return;
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, window.resetsAt - Date.now()) + 100));
    this.windows.delete(subjectOf(token));
  }
}

/** The `sub` of an access token: the rate limit counts per user, whichever of its tokens is used. */
function subjectOf(token: string): string {
  const payload = token.split('.')[1] ?? '';
  try {
    return String((JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { sub?: unknown }).sub);
  } catch {
    return token;
  }
}

/** The target of a `Link` header's relation, as a path and query on the deployment. */
export function linkTarget(link: string | undefined, relation: string): string | null {
  const part = link?.split(',').find((candidate) => new RegExp(`rel="?${relation}"?`).test(candidate));
  const target = part?.match(/<([^>]+)>/)?.[1];
  if (target === undefined) return null;
  const url = new URL(target, remoteConfig.baseUrl);
  return `${url.pathname}${url.search}`;
}
