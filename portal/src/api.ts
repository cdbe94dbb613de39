import createClient from 'openapi-fetch';
import type { components, paths } from '../../generated/openapi';

export type ProcessSummary = components['schemas']['ProcessSummaryDto'];
export type ProcessDetail = components['schemas']['ProcessDetailResponseDto'];
export type ProcessList = components['schemas']['ProcessListResponseDto'];
export type FollowUpEvent = components['schemas']['FollowUpEventDto'];
export type ListQuery = NonNullable<paths['/api/processes']['get']['parameters']['query']>;

/** An answer of the API that is not a success, as its problem+json body words it. */
export class ApiProblem extends Error {
  constructor(
    readonly status: number,
    readonly title: string,
    readonly detail: string,
    readonly fieldMessages: string[],
  ) {
    super(detail || title);
  }
}

/** The API could not be reached at all (network, or a CORS refusal the browser hides). */
export class ApiUnreachable extends Error {}

export interface PageLinks {
  first?: string;
  prev?: string;
  next?: string;
  last?: string;
}

export interface ListPage {
  list: ProcessList;
  links: PageLinks;
}

/**
 * The portal's only door to the API: the typed client generated from the OpenAPI document, the
 * bearer token (kept in this object's memory, never in storage) and the ETags of what it has read.
 */
export class PortalApi {
  private readonly client;
  private token: string | null = null;
  private readonly entityTags = new Map<string, { etag: string; body: unknown }>();

  constructor(readonly baseUrl: string) {
    // openapi-fetch's defaults: several values of a filter travel repeated (`status=A&status=B`).
    this.client = createClient<paths>({ baseUrl });
  }

  get signedIn(): boolean {
    return this.token !== null;
  }

  get bearer(): string | null {
    return this.token;
  }

  signOut(): void {
    this.token = null;
    this.entityTags.clear();
  }

  async signIn(username: string, password: string): Promise<void> {
    const { data, error, response } = await this.call(() =>
      this.client.POST('/api/auth/login', { body: { username, password } }),
    );
    if (data === undefined) throw toProblem(response, error);
    this.token = data.accessToken;
  }

  /** One page of the list; `url` is a `Link` target when paging, else the query is used. */
  async list(query: ListQuery): Promise<ListPage> {
    const { body, response } = await this.revalidated<ProcessList>(
      `list:${JSON.stringify(query)}`,
      (headers) => this.client.GET('/api/processes', { params: { query }, headers }),
    );
    return { list: body, links: parseLinks(response.headers.get('Link')) };
  }

  async detail(numero: string): Promise<ProcessDetail> {
    const { body } = await this.revalidated<ProcessDetail>(`detail:${numero}`, (headers) =>
      this.client.GET('/api/processes/{numero}', { params: { path: { numero } }, headers }),
    );
    return body;
  }

  /**
   * A GET that sends the ETag of the copy it holds; a 304 answers that copy. The browser's own
   * cache is bypassed (`no-store`) so that a 304 reaches this code instead of being resolved inside it.
   */
  private async revalidated<T>(
    key: string,
    send: (
      headers: Record<string, string>,
    ) => Promise<{ data?: unknown; error?: unknown; response: Response }>,
  ): Promise<{ body: T; response: Response }> {
    const held = this.entityTags.get(key);
    const headers: Record<string, string> = { Authorization: `Bearer ${this.requireToken()}` };
    if (held !== undefined) headers['If-None-Match'] = held.etag;
    const { data, error, response } = await this.call(() => send(headers));
    if (response.status === 304 && held !== undefined) return { body: held.body as T, response };
    if (data === undefined) {
      if (response.status === 401) this.signOut();
      throw toProblem(response, error);
    }
    const etag = response.headers.get('ETag');
    if (etag !== null) this.entityTags.set(key, { etag, body: data });
    return { body: data as T, response };
  }

  private requireToken(): string {
    if (this.token === null) throw new ApiProblem(401, 'Unauthorized', 'Sign in first.', []);
    return this.token;
  }

  private async call<R>(send: () => Promise<R>): Promise<R> {
    try {
      return await send();
    } catch (error) {
      if (error instanceof TypeError) {
        throw new ApiUnreachable(
          `The API at ${this.baseUrl || window.location.origin} could not be reached from this page ` +
            '(offline, or this origin is not among the API’s allowed origins).',
        );
      }
      throw error;
    }
  }
}

function toProblem(response: Response, error: unknown): ApiProblem {
  const body = (typeof error === 'object' && error !== null ? error : {}) as {
    title?: string;
    detail?: string;
    errors?: Array<{ name: string; message: string }>;
  };
  return new ApiProblem(
    response.status,
    body.title ?? response.statusText,
    body.detail ?? '',
    (body.errors ?? []).map((field) => `${field.name}: ${field.message}`),
  );
}

/** RFC 8288 `Link: <url>; rel="next", …` into the relations the list sends. */
export function parseLinks(header: string | null): PageLinks {
  const links: PageLinks = {};
  for (const part of header?.split(',') ?? []) {
    const match = /<([^>]*)>\s*;\s*rel="?([a-z]+)"?/i.exec(part.trim());
    const [, url, rel] = match ?? [];
    if (url !== undefined && (rel === 'first' || rel === 'prev' || rel === 'next' || rel === 'last')) {
      links[rel] = url;
    }
  }
  return links;
}
