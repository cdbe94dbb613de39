import { readFileSync } from 'node:fs';
import { TestApp } from './support/test-app.js';

interface SchemaObject {
  type?: string | string[];
  enum?: unknown[];
  properties?: Record<string, SchemaObject>;
  required?: string[];
  items?: SchemaObject;
  $ref?: string;
}

interface Operation {
  operationId: string;
  requestBody?: { content: Record<string, { schema: SchemaObject }> };
}

interface BodyRoute {
  method: 'post' | 'patch';
  path: string;
  /** A body the route accepts, to which each case adds or changes one member. */
  valid: Record<string, unknown>;
}

const document = JSON.parse(readFileSync(new URL('../openapi.json', import.meta.url), 'utf8')) as {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, SchemaObject> };
};

/** The body schema of every operation of the document that takes one, by operationId. */
const documentedBodies = new Map(
  Object.values(document.paths).flatMap((operations) =>
    Object.values(operations).flatMap((operation) => {
      const ref = operation.requestBody?.content['application/json']?.schema.$ref;
      return ref === undefined
        ? []
        : [[operation.operationId, document.components.schemas[ref.split('/').pop()!]!]];
    }),
  ),
);

const BUILT_IN_NAMES = ['constructor', '__proto__', 'toString', 'prototype', 'hasOwnProperty', 'valueOf'];
/** Raw C0 controls and DEL, NUL first: PostgreSQL cannot store a NUL in text. */
const CONTROL_BYTES = ['\u0000', '\u0001', '\u0008', '\u000a', '\u001b', '\u001f', '\u007f'];

const isOfType = (schema: SchemaObject | undefined, type: string): boolean =>
  schema?.type === type || (Array.isArray(schema?.type) && schema.type.includes(type));

/** The string members of a body schema (an array of strings counts: each item is one). */
interface StringMember {
  name: string;
  isArray: boolean;
  isEnum: boolean;
}

function stringMembers(schema: SchemaObject): StringMember[] {
  return Object.entries(schema.properties ?? {}).flatMap(([name, member]): StringMember[] => {
    if (isOfType(member, 'string')) return [{ name, isArray: false, isEnum: member.enum !== undefined }];
    if (isOfType(member, 'array') && isOfType(member.items, 'string')) {
      return [{ name, isArray: true, isEnum: member.items?.enum !== undefined }];
    }
    return [];
  });
}

describe('Request bodies, on every route that takes one', () => {
  let testApp: TestApp;
  let token: string;
  let refreshToken: string;
  let routes: Record<string, BodyRoute>;

  beforeAll(async () => {
    testApp = await TestApp.start({
      env: { WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' },
    });
    await testApp.addCustomers({ id: 'acme', name: 'ACME' });
    await testApp.addUser({ username: 'acme', password: 'acme-pass-1', customerIds: ['acme'] });
    const login = await testApp.http
      .post('/api/auth/login')
      .send({ username: 'acme', password: 'acme-pass-1' })
      .expect(200);
    ({ accessToken: token, refreshToken } = login.body as { accessToken: string; refreshToken: string });
    const webhook = await testApp.http
      .post('/api/webhooks')
      .set('Authorization', `Bearer ${token}`)
      .send({ url: 'http://127.0.0.1:9/hooks' })
      .expect(201);
    const id = (webhook.body as { id: string }).id;
    routes = {
      login: {
        method: 'post',
        path: '/api/auth/login',
        valid: { username: 'acme', password: 'acme-pass-1' },
      },
      refreshToken: { method: 'post', path: '/api/auth/refresh', valid: { refreshToken } },
      logout: { method: 'post', path: '/api/auth/logout', valid: { refreshToken } },
      createWebhook: { method: 'post', path: '/api/webhooks', valid: { url: 'http://127.0.0.1:9/b' } },
      updateWebhook: { method: 'patch', path: `/api/webhooks/${id}`, valid: { description: 'ERP' } },
      replayWebhook: {
        method: 'post',
        path: `/api/webhooks/${id}/replay`,
        valid: { since: new Date().toISOString() },
      },
    };
  });

  afterAll(() => testApp.close());

  const send = (operationId: string, body: string) => {
    const route = routes[operationId]!;
    return testApp.http[route.method](route.path)
      .set('Authorization', `Bearer ${token}`)
      .set('Content-Type', 'application/json')
      .send(body);
  };

  it('covers every operation of the document that takes a body', () => {
    expect(Object.keys(routes).sort()).toEqual([...documentedBodies.keys()].sort());
  });

  describe.each([...documentedBodies.keys()])('%s', (operationId) => {
    it.each(BUILT_IN_NAMES)('refuses an unknown member named %s', async (name) => {
      // Written by hand: JSON.stringify of an object literal would not carry `__proto__` as a member.
      const body = JSON.stringify(routes[operationId]!.valid).replace(/^\{/, `{"${name}":1,`);

      const response = await send(operationId, body).expect(400);

      expect(response.body).toMatchObject({
        type: '/problems/invalid-request',
        errors: [{ in: 'body', name, message: 'unknown field' }],
      });
    });

    it('answers raw control bytes in every string member without a 5xx, a NUL with 400', async () => {
      const members = stringMembers(documentedBodies.get(operationId)!);
      expect(members.length).toBeGreaterThan(0);

      for (const { name, isArray } of members) {
        for (const byte of CONTROL_BYTES) {
          const text = `a${byte}b`;
          const body = { ...routes[operationId]!.valid, [name]: isArray ? [text] : text };

          const response = await send(operationId, JSON.stringify(body));

          const label = `${name} with U+${byte.charCodeAt(0).toString(16).padStart(4, '0')}`;
          expect({ label, status: response.status < 500 }).toEqual({ label, status: true });
          if (byte === '\u0000') {
            expect({ label, status: response.status }).toEqual({ label, status: 400 });
            expect((response.body as { errors: unknown[] }).errors).toContainEqual(
              expect.objectContaining({ in: 'body', name: isArray ? `${name}.0` : name }),
            );
          }
        }
      }
    });

    it('says a string member of the wrong type must be a string, and a missing one is required', async () => {
      const schema = documentedBodies.get(operationId)!;
      // A closed set's member says its values instead ("must be one of ACTIVE, PAUSED").
      const members = stringMembers(schema).filter((member) => !member.isArray && !member.isEnum);

      for (const { name } of members) {
        for (const wrong of [123, [], {}, true]) {
          const body = { ...routes[operationId]!.valid, [name]: wrong };
          const response = await send(operationId, JSON.stringify(body)).expect(400);
          expect((response.body as { errors: unknown[] }).errors).toContainEqual({
            in: 'body',
            name,
            message: 'must be a string',
          });
        }
        if (schema.required?.includes(name)) {
          const { [name]: _left, ...body } = routes[operationId]!.valid;
          const response = await send(operationId, JSON.stringify(body)).expect(400);
          expect(response.body).toMatchObject({ errors: [{ in: 'body', name, message: 'is required' }] });
        }
      }
    });
  });

  it('refuses a NUL in a path or query parameter with 400, not a database error', async () => {
    const inPath = await testApp.http
      .get('/api/webhooks/a%00b')
      .set('Authorization', `Bearer ${token}`)
      .expect(400);
    const inQuery = await testApp.http
      .get('/api/processes?container=a%00b')
      .set('Authorization', `Bearer ${token}`)
      .expect(400);

    expect(inPath.body).toMatchObject({ errors: [{ in: 'path', name: 'id' }] });
    expect(inQuery.body).toMatchObject({ errors: [{ in: 'query', name: 'container' }] });
  });
});
