import createClient from 'openapi-fetch';
import type { components, paths } from '../../generated/openapi';
import { t } from './i18n/messages';

export type ProcessSummary = components['schemas']['ProcessSummaryDto'];
export type ProcessDetail = components['schemas']['ProcessDetailResponseDto'];
export type ProcessList = components['schemas']['ProcessListResponseDto'];
export type FollowUpEvent = components['schemas']['FollowUpEventDto'];
export type ListQuery = NonNullable<paths['/api/processes']['get']['parameters']['query']>;
export type Webhook = components['schemas']['WebhookResponseDto'];
export type NewWebhook = components['schemas']['CreateWebhookRequestDto'];
export type WebhookUpdate = components['schemas']['UpdateWebhookRequestDto'];
/** Where a replay sends delivery back to: `{ after: cursor }` or `{ since: instant }`. */
export type WebhookStart = components['schemas']['ReplayWebhookRequestDto'];
export type WebhookDeliveriesPage = components['schemas']['WebhookDeliveriesPageResponseDto'];
export type WebhookDelivery = components['schemas']['WebhookDeliveryResponseDto'];
export type ChangeKind = NonNullable<Webhook['kinds']>[number];
export type ClientApplication = components['schemas']['ClientResponseDto'];
export type Scope = ClientApplication['scopes'][number];
export type WebhookMessage = components['schemas']['WebhookMessageResponseDto'];
export type DeliveryOutcome = NonNullable<
  NonNullable<paths['/api/webhooks/{id}/deliveries']['get']['parameters']['query']>['outcome']
>;

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

/** The API at `origin` could not be reached at all (network, or a CORS refusal the browser hides). */
export class ApiUnreachable extends Error {
  constructor(readonly origin: string) {
    super(`The API at ${origin} could not be reached`);
  }
}

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
  private refreshToken: string | null = null;
  private refreshTimer: ReturnType<typeof setTimeout> | undefined;
  /** The renewal under way, which every request that met an expired token meanwhile waits for. */
  private renewal: Promise<void> | undefined;
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

  /** Ends the sign-in on the server too (best effort: the tokens are dropped here either way). */
  signOut(): void {
    if (this.refreshToken !== null) {
      void this.client
        .POST('/api/auth/logout', { body: { refreshToken: this.refreshToken } })
        .catch(() => undefined);
    }
    this.forgetTokens();
  }

  async signIn(username: string, password: string): Promise<void> {
    const { data, error, response } = await this.call(() =>
      this.client.POST('/api/auth/login', { body: { username, password } }),
    );
    if (data === undefined) throw toProblem(response, error);
    this.keep(data);
  }

  /**
   * Holds a pair of tokens (in memory only) and renews the access token a minute before it expires,
   * with the single-use refresh token, so that a page open all day never asks for the password
   * again until the sign-in itself ends.
   */
  private keep(tokens: { accessToken: string; expiresIn: number; refreshToken: string }): void {
    this.token = tokens.accessToken;
    this.refreshToken = tokens.refreshToken;
    clearTimeout(this.refreshTimer);
    const renewInMs = Math.max(tokens.expiresIn - 60, tokens.expiresIn / 2) * 1000;
    this.refreshTimer = setTimeout(() => void this.renew(), renewInMs);
  }

  /** One renewal at a time: a refresh token is single use, so two would be one too many. */
  private renew(): Promise<void> {
    this.renewal ??= this.refresh().finally(() => (this.renewal = undefined));
    return this.renewal;
  }

  private async refresh(): Promise<void> {
    if (this.refreshToken === null) return;
    const { data } = await this.call(() =>
      this.client.POST('/api/auth/refresh', { body: { refreshToken: this.refreshToken ?? '' } }),
    ).catch(() => ({ data: undefined }));
    // Refused (the sign-in ended): the access token runs out, and the next call's 401 signs out.
    if (data !== undefined) this.keep(data);
  }

  /**
   * The access token to use after `refused` was answered 401 (it expired while the page slept, say):
   * renewed once, however many requests met it at the same time, or already renewed by one of them;
   * null when the sign-in cannot be renewed.
   */
  async tokenAfterRefusal(refused: string): Promise<string | null> {
    if (this.token === refused && this.refreshToken !== null) await this.renew();
    return this.token === refused ? null : this.token;
  }

  /** Sends with the access token, and once more with a renewed one if the first is refused. */
  private async withToken<R extends { response: Response }>(
    send: (headers: Record<string, string>) => Promise<R>,
  ): Promise<R> {
    const used = this.requireToken();
    const answer = await this.call(() => send({ Authorization: `Bearer ${used}` }));
    if (answer.response.status !== 401) return answer;
    const renewed = await this.tokenAfterRefusal(used);
    return renewed === null ? answer : this.call(() => send({ Authorization: `Bearer ${renewed}` }));
  }

  private forgetTokens(): void {
    clearTimeout(this.refreshTimer);
    this.token = null;
    this.refreshToken = null;
    this.entityTags.clear();
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

  /** The signed-in user's webhooks, oldest first (never with their secrets). */
  async webhooks(): Promise<Webhook[]> {
    const list = await this.authorized((headers) => this.client.GET('/api/webhooks', { headers }));
    return list.data;
  }

  /** A new webhook, with its signing secret: the only time the API shows it. */
  async createWebhook(body: NewWebhook): Promise<Webhook & { secret: string }> {
    return this.authorized((headers) => this.client.POST('/api/webhooks', { body, headers }));
  }

  async updateWebhook(id: string, body: WebhookUpdate): Promise<Webhook> {
    return this.authorized((headers) =>
      this.client.PATCH('/api/webhooks/{id}', { params: { path: { id } }, body, headers }),
    );
  }

  async deleteWebhook(id: string): Promise<void> {
    await this.authorized((headers) =>
      this.client.DELETE('/api/webhooks/{id}', { params: { path: { id } }, headers }),
    );
  }

  async replayWebhook(id: string, body: WebhookStart): Promise<Webhook> {
    return this.authorized((headers) =>
      this.client.POST('/api/webhooks/{id}/replay', { params: { path: { id } }, body, headers }),
    );
  }

  /**
   * One page of a webhook's delivery attempts, newest first, of one outcome or both; `after` is an
   * earlier page's `next`.
   */
  async webhookDeliveries(
    id: string,
    outcome: DeliveryOutcome | undefined,
    after?: string,
  ): Promise<WebhookDeliveriesPage> {
    return this.authorized((headers) =>
      this.client.GET('/api/webhooks/{id}/deliveries', {
        params: {
          path: { id },
          query: {
            limit: 20,
            ...(outcome !== undefined && { outcome }),
            ...(after !== undefined && { after }),
          },
        },
        headers,
      }),
    );
  }

  /** Sends the webhook the test message (once, outside its queue); answers its `webhook-id`. */
  async sendWebhookTest(id: string): Promise<WebhookMessage> {
    return this.authorized((headers) =>
      this.client.POST('/api/webhooks/{id}/test', { params: { path: { id } }, headers }),
    );
  }

  /** Sends the message of one attempt again, with its `webhook-id`. */
  async resendWebhookDelivery(id: string, deliveryId: string): Promise<WebhookMessage> {
    return this.authorized((headers) =>
      this.client.POST('/api/webhooks/{id}/deliveries/{deliveryId}/resend', {
        params: { path: { id, deliveryId } },
        headers,
      }),
    );
  }

  /** The signed-in user's client applications, oldest first (never with their secrets). */
  async clients(): Promise<ClientApplication[]> {
    const list = await this.authorized((headers) => this.client.GET('/api/clients', { headers }));
    return list.data;
  }

  /** A new client application, with its secret: the only time the API shows it. */
  async createClient(name: string, scopes: Scope[]): Promise<ClientApplication & { clientSecret: string }> {
    return this.authorized((headers) =>
      this.client.POST('/api/clients', { body: { name, scopes }, headers }),
    );
  }

  /** A new secret for the client; the old one keeps working for 24 hours. */
  async rotateClientSecret(id: string): Promise<string> {
    const rotated = await this.authorized((headers) =>
      this.client.POST('/api/clients/{id}/secret', { params: { path: { id } }, headers }),
    );
    return rotated.clientSecret;
  }

  async deleteClient(id: string): Promise<void> {
    await this.authorized((headers) =>
      this.client.DELETE('/api/clients/{id}', { params: { path: { id } }, headers }),
    );
  }

  /** A call with the bearer token; a non-2xx answer is thrown as its problem (a 401 ends the sign-in). */
  private async authorized<T>(
    send: (headers: Record<string, string>) => Promise<{ data?: T; error?: unknown; response: Response }>,
  ): Promise<T> {
    const { data, error, response } = await this.withToken(send);
    if (!response.ok) {
      if (response.status === 401) this.forgetTokens();
      throw toProblem(response, error);
    }
    // A 204 has no body: the callers that get one ask for nothing back.
    return data as T;
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
    const { data, error, response } = await this.withToken((headers) =>
      send(held === undefined ? headers : { ...headers, 'If-None-Match': held.etag }),
    );
    if (response.status === 304 && held !== undefined) return { body: held.body as T, response };
    if (data === undefined) {
      if (response.status === 401) this.forgetTokens();
      throw toProblem(response, error);
    }
    const etag = response.headers.get('ETag');
    if (etag !== null) this.entityTags.set(key, { etag, body: data });
    return { body: data as T, response };
  }

  private requireToken(): string {
    if (this.token === null) throw new ApiProblem(401, t().unauthorized, t().signInFirst, []);
    return this.token;
  }

  private async call<R>(send: () => Promise<R>): Promise<R> {
    try {
      return await send();
    } catch (error) {
      if (error instanceof TypeError) {
        throw new ApiUnreachable(this.baseUrl || window.location.origin);
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
