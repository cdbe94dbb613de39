import type { AddressInfo } from 'node:net';
import { OperationsGateway } from '../src/operations/operations.gateway.js';
import { HostResolver } from '../src/webhooks/security/host-resolver.js';
import { FakeOperationsGateway } from '../src/testing/fake-operations.gateway.js';
import { anOperationsDetail, anOperationsProcess } from '../src/testing/operations-process.factory.js';
import { SseClient } from './support/sse-client.js';
import { syncNow } from './support/sync-now.js';
import { TestApp } from './support/test-app.js';

interface Schema {
  type?: string | string[];
  example?: unknown;
  default?: unknown;
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

/** What Swagger UI's "Try it out" puts in a parameter's field: its example, else its default. */
const filledIn = (parameter: Parameter): unknown =>
  parameter.example ?? parameter.schema?.example ?? parameter.schema?.default;

/** A field's value as Swagger UI types it: a string as it is, a number or a boolean as JSON writes it. */
const asText = (value: unknown): string => (typeof value === 'string' ? value : JSON.stringify(value));

/**
 * The document's examples as Swagger UI's "Try it out" sends them, every field left as filled in,
 * against the service with data: each operation a portal or an integrator tries first answers 2xx
 * with data, and no operation's examples contradict each other.
 */
describe('The OpenAPI document’s examples, as Swagger UI sends them', () => {
  const gateway = new FakeOperationsGateway();
  let testApp: TestApp;
  let document: Document;
  let baseUrl: string;
  let token: string;

  const operation = (operationId: string): { method: string; path: string; operation: Operation } => {
    for (const [path, operations] of Object.entries(document.paths)) {
      for (const [method, candidate] of Object.entries(operations)) {
        if (candidate.operationId === operationId) return { method, path, operation: candidate };
      }
    }
    throw new Error(`no operation ${operationId}`);
  };

  /** The request Swagger UI makes for the operation: path, query and headers from the examples. */
  const exampleRequest = (operationId: string) => {
    const { method, path, operation: found } = operation(operationId);
    const query = new URLSearchParams();
    const headers: Record<string, string> = { Authorization: `Bearer ${token}` };
    let url = path;
    for (const parameter of found.parameters ?? []) {
      const value = filledIn(parameter);
      if (value === undefined) continue;
      if (parameter.in === 'path') url = url.replace(`{${parameter.name}}`, asText(value));
      if (parameter.in === 'header') headers[parameter.name] = asText(value);
      if (parameter.in === 'query') {
        for (const item of Array.isArray(value) ? value : [value]) query.append(parameter.name, asText(item));
      }
    }
    const search = query.toString();
    return { method, url: search === '' ? url : `${url}?${search}`, headers, body: exampleBody(found) };
  };

  /** The body Swagger UI fills in: the first named example, else one built from the members' examples. */
  const exampleBody = (found: Operation): unknown => {
    const media = found.requestBody?.content['application/json'];
    if (media === undefined) return undefined;
    const [first] = Object.values(media.examples ?? {});
    if (first !== undefined) return first.value;
    const schema = document.components.schemas[media.schema!.$ref!.split('/').pop()!]!;
    return Object.fromEntries(
      Object.entries(schema.properties ?? {}).flatMap(([name, member]) =>
        member.example === undefined ? [] : [[name, member.example]],
      ),
    );
  };

  const send = (operationId: string) => {
    const request = exampleRequest(operationId);
    const test = testApp.http[request.method as 'get' | 'post'](request.url).set(request.headers);
    return request.body === undefined ? test : test.send(request.body as object);
  };

  beforeAll(async () => {
    testApp = await TestApp.start({
      override: (builder) =>
        builder
          .overrideProvider(OperationsGateway)
          .useValue(gateway)
          // The example receiver's host, resolved as on the internet (this machine has no DNS).
          .overrideProvider(HostResolver)
          .useValue({ resolve: () => Promise.resolve([{ address: '93.184.215.14', family: 4 }]) }),
    });
    await testApp.app.listen(0, '127.0.0.1');
    baseUrl = `http://127.0.0.1:${(testApp.app.getHttpServer().address() as AddressInfo).port}`;
    document = (await testApp.http.get('/docs/openapi.json').expect(200)).body as Document;
    // The data the examples name: the process of getProcess's example, the user of login's.
    const numero = filledIn(operation('getProcess').operation.parameters!.find((p) => p.name === 'numero')!);
    const process = anOperationsProcess({ numero: String(numero) });
    gateway.put(process, anOperationsDetail(process));
    await syncNow(testApp);
    const login = exampleBody(operation('login').operation) as { username: string; password: string };
    await testApp.addUser({ ...login, customerIds: [process.customer.id] });
    token = ((await send('login').expect(200)).body as { accessToken: string }).accessToken;
  });

  afterAll(() => testApp.close());

  it('never fills in a cursor and an instant together', () => {
    for (const operations of Object.values(document.paths)) {
      for (const candidate of Object.values(operations)) {
        const filled = (candidate.parameters ?? [])
          .filter((parameter) => filledIn(parameter) !== undefined)
          .map((parameter) => parameter.name);
        expect({
          operation: candidate.operationId,
          both: filled.includes('after') && filled.includes('since'),
        }).toEqual({ operation: candidate.operationId, both: false });
      }
    }
  });

  it.each(['listProcesses', 'getProcess', 'listChanges'])('answers %s 2xx with data', async (operationId) => {
    const response = await send(operationId).expect(200);

    const body = response.body as { data?: unknown[]; totalItems?: number; numero?: string };
    if (operationId === 'getProcess') expect(body.numero).toBeDefined();
    else expect(body.data?.length).toBeGreaterThan(0);
  });

  it('opens the stream', async () => {
    const request = exampleRequest('streamChanges');

    const stream = await SseClient.open(`${baseUrl}${request.url}`, request.headers);
    try {
      expect(stream.response.status).toBe(200);
    } finally {
      stream.close();
    }
  });

  it('creates a webhook, then lists it', async () => {
    await send('createWebhook').expect(201);

    const listed = await send('listWebhooks').expect(200);
    expect((listed.body as { data: unknown[] }).data).toHaveLength(1);
  });
});
