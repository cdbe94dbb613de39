/**
 * Try it out, against the demo: every operation of the document the deployment serves, sent with
 * its examples as Swagger UI fills them in, answers 2xx with data (or the status its example is
 * documented to get). Where a user pastes a value Swagger UI cannot know (the id of a webhook, a
 * client application or a delivery just made, a refresh token, a cursor), the test pastes the one
 * it made, as a user would. Runs where the sandbox is configured: the examples name the demo's
 * users and processes.
 */
import type {
  ChangesPage,
  CreatedWebhook,
  ProcessDetail,
  WebhookDeliveriesPage,
} from './support/api-types.js';
import { eventually } from './support/eventually.js';
import { RemoteApi, ROOM_WAIT_MS, type Answer } from './support/remote-api.js';
import { remoteConfig } from './support/remote-config.js';

interface Schema {
  type?: string | string[];
  example?: unknown;
  default?: unknown;
  enum?: unknown[];
  properties?: Record<string, Schema>;
  $ref?: string;
}

interface Parameter {
  name: string;
  in: 'query' | 'path' | 'header';
  example?: unknown;
  schema?: Schema;
}

interface Operation {
  operationId: string;
  parameters?: Parameter[];
  requestBody?: {
    content: Record<string, { schema?: Schema; examples?: Record<string, { value: unknown }> }>;
  };
}

interface Document {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Schema> };
}

/** A test message is sent at once; a busy machine may take a few seconds to log its attempt. */
const ATTEMPT_LOGGED_WITHIN_MS = 15_000;

/** What the user pastes into Try it out's fields, by field name (path parameter or body member). */
type Pasted = Record<string, string>;

/** What Swagger UI's "Try it out" puts in a parameter's field: its example, else its default. */
const filledIn = (parameter: Parameter): unknown =>
  parameter.example ?? parameter.schema?.example ?? parameter.schema?.default;

/** What Swagger UI puts in a body member built from the schema: its example, default or first value. */
const memberValue = (member: Schema): unknown => member.example ?? member.default ?? member.enum?.[0];

/** A field's value as Swagger UI types it: a string as it is, a number or a boolean as JSON writes it. */
const asText = (value: unknown): string => (typeof value === 'string' ? value : JSON.stringify(value));

const api = await RemoteApi.connect();
const document = (await (await fetch(`${api.baseUrl}/docs/openapi.json`)).json()) as Document;

const operations = Object.entries(document.paths).flatMap(([path, byMethod]) =>
  Object.entries(byMethod)
    .filter(([, operation]) => typeof operation === 'object' && operation.operationId !== undefined)
    .map(([method, operation]) => ({ method: method.toUpperCase(), path, operation })),
);

const find = (operationId: string) => {
  const found = operations.find((candidate) => candidate.operation.operationId === operationId);
  if (found === undefined) throw new Error(`the document has no operation ${operationId}`);
  return found;
};

/** The body's media type and the schema Swagger UI builds a body from when no example is named. */
const bodyOf = (operation: Operation) => {
  const [mediaType, media] = Object.entries(operation.requestBody?.content ?? {})[0] ?? [];
  if (mediaType === undefined || media === undefined) return undefined;
  const schema =
    document.components.schemas[media.schema?.$ref?.split('/').pop() ?? ''] ?? media.schema ?? {};
  return { mediaType, named: Object.values(media.examples ?? {})[0]?.value, schema };
};

/** The body Swagger UI fills in: the first named example, else one from the members' own values. */
const exampleBody = (operation: Operation, pasted: Pasted): Record<string, unknown> | undefined => {
  const body = bodyOf(operation);
  if (body === undefined) return undefined;
  const filled =
    (body.named as Record<string, unknown> | undefined) ??
    Object.fromEntries(
      Object.entries(body.schema.properties ?? {}).flatMap(([name, member]) => {
        const value = memberValue(member);
        return value === undefined ? [] : [[name, value]];
      }),
    );
  return Object.fromEntries(Object.entries(filled).map(([name, value]) => [name, pasted[name] ?? value]));
};

/** Tries an operation out as Swagger UI sends it, with what the user pasted in, as `token`'s user. */
const tryItOut = <Body>(operationId: string, token: string | undefined, pasted: Pasted = {}) => {
  const { method, path, operation } = find(operationId);
  const query = new URLSearchParams();
  const headers: Record<string, string> = {};
  let url = path;
  for (const parameter of operation.parameters ?? []) {
    const value = pasted[parameter.name] ?? filledIn(parameter);
    if (value === undefined) continue;
    if (parameter.in === 'path') url = url.replace(`{${parameter.name}}`, encodeURIComponent(asText(value)));
    if (parameter.in === 'header') headers[parameter.name] = asText(value);
    if (parameter.in === 'query') {
      for (const item of Array.isArray(value) ? value : [value]) query.append(parameter.name, asText(item));
    }
  }
  const search = query.toString();
  const target = search === '' ? url : `${url}?${search}`;
  const body = exampleBody(operation, pasted);
  const mediaType = bodyOf(operation)?.mediaType;
  driven.add(operationId);
  if (body === undefined || mediaType === 'application/json') {
    return api.request<Body>(method, target, { token, headers, body });
  }
  const form = new URLSearchParams(
    Object.entries(body).map(([name, value]): [string, string] => [name, asText(value)]),
  );
  return api.request<Body>(method, target, {
    token,
    headers: { ...headers, 'Content-Type': mediaType! },
    rawBody: form.toString(),
  });
};

/** The operations tried out so far. */
const driven = new Set<string>();

const expectStatus = (answer: Answer, status: number) =>
  expect({ status: answer.status, body: answer.body }).toEqual({ status, body: answer.body });

(remoteConfig.sandbox === null ? describe.skip : describe)(
  'the served document’s examples, tried out',
  () => {
    let token: string;
    let webhook: CreatedWebhook | undefined;
    let client: { id: string; clientId: string; clientSecret: string } | undefined;

    beforeAll(async () => {
      const signedIn = await tryItOut<{ accessToken: string }>('login', undefined);
      expectStatus(signedIn, 200);
      token = signedIn.body.accessToken;
      await api.roomFor(10, token);
    }, ROOM_WAIT_MS);

    afterAll(async () => {
      if (webhook !== undefined) await api.request('DELETE', `/api/webhooks/${webhook.id}`, { token });
      if (client !== undefined) await api.request('DELETE', `/api/clients/${client.id}`, { token });
    });

    it('never fills in a cursor and an instant together', () => {
      for (const { operation } of operations) {
        const filled = [
          ...(operation.parameters ?? []).filter((parameter) => filledIn(parameter) !== undefined),
          ...Object.keys(exampleBody(operation, {}) ?? {}).map((name) => ({ name })),
        ].map(({ name }) => name);
        expect({
          operation: operation.operationId,
          both: filled.includes('after') && filled.includes('since'),
        }).toEqual({ operation: operation.operationId, both: false });
      }
    });

    it('leaves Swagger UI no body member to make up: each body has a named example or members of their own', () => {
      const madeUp = operations.flatMap(({ operation }) => {
        const body = bodyOf(operation);
        if (body === undefined || body.named !== undefined) return [];
        return Object.entries(body.schema.properties ?? {})
          .filter(([, member]) => memberValue(member) === undefined)
          .map(([name]) => `${operation.operationId}.${name}`);
      });

      expect(madeUp).toEqual([]);
    });

    it('signs in with the login example, and refreshes and signs out with the refresh token it answered', async () => {
      const signedIn = await tryItOut<{ refreshToken: string }>('login', undefined);
      const refreshed = await tryItOut<{ accessToken: string; refreshToken: string }>(
        'refreshToken',
        undefined,
        {
          refreshToken: signedIn.body.refreshToken,
        },
      );
      const signedOut = await tryItOut('logout', undefined, { refreshToken: refreshed.body.refreshToken });

      expectStatus(refreshed, 200);
      expect(refreshed.body.accessToken).toEqual(expect.any(String));
      expectStatus(signedOut, 204);
    });

    it('lists processes, shows the example’s process and reads the feed', async () => {
      const list = await tryItOut<{ data: unknown[] }>('listProcesses', token);
      const detail = await tryItOut<ProcessDetail>('getProcess', token);
      const feed = await tryItOut<ChangesPage>('listChanges', token);

      expectStatus(list, 200);
      expect(list.body.data.length).toBeGreaterThan(0);
      expectStatus(detail, 200);
      expect(detail.body.numero).toBe(
        filledIn(find('getProcess').operation.parameters!.find((p) => p.name === 'numero')!),
      );
      expectStatus(feed, 200);
      expect(feed.body.data.length).toBeGreaterThan(0);
    });

    it('opens the change stream', async () => {
      // Its examples fill in none of its parameters; fetch, as a portal opens it (Swagger UI would wait for the end).
      expect(
        (find('streamChanges').operation.parameters ?? []).filter(
          (parameter) => filledIn(parameter) !== undefined,
        ),
      ).toEqual([]);
      driven.add('streamChanges');
      const { status, stream } = await api.openStream('', token);
      stream?.close();

      expect(status).toBe(200);
    });

    it('subscribes the example’s URL, then reads, changes, tests, resends, replays and deletes that webhook', async () => {
      const created = await tryItOut<CreatedWebhook>('createWebhook', token);
      expectStatus(created, 201);
      webhook = created.body;
      const id = { id: webhook.id };

      const listed = await tryItOut<{ data: Array<{ id: string }> }>('listWebhooks', token);
      const read = await tryItOut<{ id: string }>('getWebhook', token, id);
      const paused = await tryItOut<{ status: string }>('updateWebhook', token, id);
      const rotated = await tryItOut<{ secret: string }>('rotateWebhookSecret', token, id);
      const tested = await tryItOut<{ messageId: string }>('sendWebhookTest', token, id);
      const deliveries = await eventually(
        'the test message’s attempt in the log',
        ATTEMPT_LOGGED_WITHIN_MS,
        async () => {
          const page = await tryItOut<WebhookDeliveriesPage>('listWebhookDeliveries', token, id);
          return page.body.data.some((attempt) => attempt.messageId === tested.body.messageId)
            ? page
            : undefined;
        },
      );
      const resent = await tryItOut('resendWebhookDelivery', token, {
        ...id,
        deliveryId: deliveries.body.data[0]?.id ?? 'none',
      });
      const replayed = await tryItOut('replayWebhook', token, { ...id, after: webhook.position });
      const deleted = await tryItOut('deleteWebhook', token, id);

      expect(listed.body.data.map((each) => each.id)).toContain(webhook.id);
      expect(read.body.id).toBe(webhook.id);
      expect(paused.body.status).toBe('PAUSED');
      expect(rotated.body.secret).toMatch(/^whsec_/);
      expect([resent, replayed, deleted].map((answer) => answer.status)).toEqual([202, 202, 204]);
      webhook = undefined;
    });

    it('registers the example’s system, then reads, changes it, gets it a token, rotates its secret and deletes it', async () => {
      const created = await tryItOut<{ id: string; clientId: string; clientSecret: string }>(
        'createClient',
        token,
      );
      expectStatus(created, 201);
      client = created.body;
      const id = { id: client.id };

      const listed = await tryItOut<{ data: Array<{ id: string }> }>('listClients', token);
      const read = await tryItOut<{ id: string }>('getClient', token, id);
      const changed = await tryItOut<{ scopes: string[] }>('updateClient', token, id);
      const metadata = await tryItOut<{ token_endpoint: string }>(
        'getAuthorizationServerMetadata',
        undefined,
      );
      const issued = await tryItOut<{ access_token: string }>('issueToken', undefined, {
        client_id: client.clientId,
        client_secret: client.clientSecret,
      });
      const rotated = await tryItOut<{ clientSecret: string }>('rotateClientSecret', token, id);
      const deleted = await tryItOut('deleteClient', token, id);

      expect(listed.body.data.map((each) => each.id)).toContain(client.id);
      expect(read.body.id).toBe(client.id);
      expectStatus(changed, 200);
      expect(metadata.body.token_endpoint).toMatch(/\/api\/oauth\/token$/);
      expectStatus(issued, 200);
      expect(issued.body.access_token).toEqual(expect.any(String));
      expect(rotated.body.clientSecret).toEqual(expect.any(String));
      expectStatus(deleted, 204);
      client = undefined;
    });

    it('answers the health checks and the metrics, and the retired tracking route its documented 410', async () => {
      const answers = await Promise.all(
        ['getLiveness', 'getReadiness', 'getMetrics', 'trackingRetired'].map((operationId) =>
          tryItOut<unknown>(operationId, undefined),
        ),
      );

      expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 410]);
      expect(String(answers[2]!.body)).toMatch(/^# HELP /m);
    });

    it('has tried out every operation of the document', () => {
      expect(
        operations.map(({ operation }) => operation.operationId).filter((id) => !driven.has(id)),
      ).toEqual([]);
    });
  },
);
