import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { validate } from '@readme/openapi-parser';
import { buildOpenApiDocument } from '../src/openapi.js';
import { OpenApiConformance } from './support/openapi-conformance.js';
import { TestApp } from './support/test-app.js';

interface Operation {
  operationId: string;
  responses: Record<string, { headers: Record<string, { required?: boolean }> }>;
}

const COMMITTED = new URL('../openapi.json', import.meta.url);

/**
 * The committed openapi.json is the reviewed contract: any change of the generated document
 * must show up in a diff. Regenerate with `UPDATE_OPENAPI=1 npm run test:e2e -- openapi`.
 */
describe('OpenAPI document', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await TestApp.start();
  });

  afterAll(() => testApp.close());

  it('matches the committed openapi.json', () => {
    const generated = `${JSON.stringify(buildOpenApiDocument(testApp.app), null, 2)}\n`;
    if (process.env.UPDATE_OPENAPI === '1') writeFileSync(COMMITTED, generated);
    expect(JSON.parse(generated)).toEqual(JSON.parse(readFileSync(COMMITTED, 'utf8')));
  });

  it('is a valid OpenAPI document (references resolve, operationIds are unique)', async () => {
    const result = await validate(fileURLToPath(COMMITTED));
    expect(result.valid ? [] : result.errors).toEqual([]);
  });

  it('is served at /docs/openapi.json, with the Swagger UI at /docs', async () => {
    const json = await testApp.http.get('/docs/openapi.json').expect(200);
    expect(json.body.openapi).toMatch(/^3\./);
    expect(Object.keys(json.body.paths as object)).toEqual(
      expect.arrayContaining([
        '/api/auth/login',
        '/api/processes',
        '/api/processes/{numero}',
        '/api/tracking',
      ]),
    );
    const ui = await testApp.http.get('/docs').redirects(1).expect(200);
    expect(ui.text).toContain('swagger-ui');
  });

  it('documents every list parameter with its constraints', async () => {
    const json = await testApp.http.get('/docs/openapi.json').expect(200);
    const parameters = json.body.paths['/api/processes'].get.parameters as Array<{
      name: string;
      in: string;
    }>;
    expect(
      parameters
        .filter((parameter) => parameter.in === 'query')
        .map((parameter) => parameter.name)
        .sort(),
    ).toEqual([
      'container',
      'customsChannel',
      'delayedByDays',
      'etaFrom',
      'etaTo',
      'freeTimeEndsFrom',
      'freeTimeEndsTo',
      'mode',
      'page',
      'pageSize',
      'shipmentFrom',
      'shipmentTo',
      'sort',
      'status',
      'type',
      'updatedFrom',
      'updatedTo',
    ]);
  });

  it.each([
    ['status', ['OPEN', 'CANCELLED']],
    ['mode', ['SEA', 'AIR', 'ROAD']],
    ['customsChannel', ['GREEN', 'YELLOW', 'RED', 'GRAY', 'NONE']],
  ])(
    'takes several values of %s as a repeated parameter (form, explode) of its enum',
    async (name, values) => {
      const json = await testApp.http.get('/docs/openapi.json').expect(200);
      const parameter = (
        json.body.paths['/api/processes'].get.parameters as Array<Record<string, unknown>>
      ).find((candidate) => candidate.name === name);
      expect(parameter).toMatchObject({
        style: 'form',
        explode: true,
        schema: { type: 'array', items: { type: 'string', enum: expect.arrayContaining(values) } },
      });
    },
  );

  it('declares X-Request-Id, a 500 and a default problem on every operation, under a unique operationId', async () => {
    const json = await testApp.http.get('/docs/openapi.json').expect(200);
    const operations = Object.values(json.body.paths as Record<string, Record<string, Operation>>).flatMap(
      (pathItem) => Object.values(pathItem),
    );
    const ids = operations.map((operation) => operation.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    for (const operation of operations) {
      expect(operation.responses).toHaveProperty('500');
      expect(operation.responses).toHaveProperty('default');
      for (const response of Object.values(operation.responses)) {
        expect(response.headers['X-Request-Id']).toMatchObject({ required: true });
      }
    }
  });

  it('declares nullable fields the OpenAPI 3.1 way, so that null validates and generators read `| null`', () => {
    const document = JSON.parse(readFileSync(COMMITTED, 'utf8')) as Record<string, unknown>;
    expect(document.openapi).toBe('3.1.0');
    const misdeclared: string[] = [];
    const visit = (node: unknown, path: string): void => {
      if (typeof node !== 'object' || node === null) return;
      const schema = node as Record<string, unknown>;
      // 3.1 has no `nullable`; `null` is in the type (and the enum) or a `{ type: 'null' }` branch.
      if ('nullable' in schema) misdeclared.push(`${path}.nullable`);
      const admitsNull = Array.isArray(schema.type) && schema.type.includes('null');
      if (admitsNull && Array.isArray(schema.enum) && !schema.enum.includes(null))
        misdeclared.push(`${path}.enum`);
      for (const branch of (schema.oneOf ?? []) as Array<Record<string, unknown>>) {
        if (!('$ref' in branch) && branch.type !== 'null') misdeclared.push(`${path}.oneOf`);
      }
      for (const [key, child] of Object.entries(schema)) visit(child, `${path}.${key}`);
    };
    visit(document, '$');
    expect(misdeclared).toEqual([]);
  });

  describe('as the source of generated clients', () => {
    type DocumentOperation = {
      operationId: string;
      tags?: string[];
      security?: Array<Record<string, string[]>>;
      parameters?: Array<{
        name: string;
        in: string;
        example?: unknown;
        required?: boolean;
        description?: string;
      }>;
      responses: Record<
        string,
        {
          headers?: Record<string, unknown>;
          content?: Record<string, { example?: { status?: number; type?: string; instance?: string } }>;
        }
      >;
    };
    const document = JSON.parse(readFileSync(COMMITTED, 'utf8')) as {
      tags: Array<{ name: string }>;
      paths: Record<string, Record<string, DocumentOperation>>;
      components: { schemas: Record<string, { properties: Record<string, unknown> }> };
    };
    const operations = Object.entries(document.paths).flatMap(([path, item]) =>
      Object.entries(item).map(([method, operation]) => ({ path, method, operation })),
    );
    const concrete = (path: string, operation: DocumentOperation) =>
      path.replace(/\{([^}]+)\}/g, (_, name: string) =>
        String(operation.parameters?.find((parameter) => parameter.name === name)?.example),
      );

    it('names each operation for the client that calls it', () => {
      expect(operations.map(({ operation }) => operation.operationId).sort()).toEqual(
        [
          'createClient',
          'createWebhook',
          'deleteClient',
          'deleteWebhook',
          'getAuthorizationServerMetadata',
          'getClient',
          'getLiveness',
          'getMetrics',
          'getProcess',
          'getReadiness',
          'getWebhook',
          'issueToken',
          'listChanges',
          'listClients',
          'listProcesses',
          'listWebhookDeliveries',
          'listWebhooks',
          'login',
          'logout',
          'refreshToken',
          'replayWebhook',
          'resendWebhookDelivery',
          'rotateClientSecret',
          'rotateWebhookSecret',
          'sendWebhookTest',
          'streamChanges',
          'trackingRetired',
          'updateClient',
          'updateWebhook',
        ].sort(),
      );
    });

    it('tags every operation with a tag the document declares', () => {
      const declared = document.tags.map((tag) => tag.name);
      for (const { operation } of operations) {
        expect(operation.tags?.length).toBeGreaterThan(0);
        expect(declared).toEqual(expect.arrayContaining(operation.tags ?? []));
      }
    });

    it.each(
      operations.map(({ path, method, operation }) => [operation.operationId, path, method, operation]),
    )('%s declares its security as the service applies it', async (_id, path, method, operation) => {
      expect(operation.security).toBeDefined();
      const response = await (method === 'post'
        ? testApp.http.post(concrete(path, operation))
        : testApp.http.get(concrete(path, operation)));
      if (operation.security!.length === 0) expect(response.status).not.toBe(401);
      else {
        // A user's token, or (but where only a user's own token will do) a client's with one scope.
        expect([[{ bearer: [] }], [{ bearer: [] }, { oauth2: [expect.any(String)] }]]).toContainEqual(
          operation.security,
        );
        expect(response.status).toBe(401);
      }
    });

    it('declares the RateLimit pair on every answer of a rate-limited operation but the refused token', () => {
      for (const { operation } of operations.filter(({ operation }) => operation.security?.length)) {
        for (const [status, response] of Object.entries(operation.responses)) {
          const names = Object.keys(response.headers ?? {});
          if (status === '401') expect(names).not.toContain('RateLimit');
          else expect(names).toEqual(expect.arrayContaining(['RateLimit', 'RateLimit-Policy']));
        }
      }
    });

    it('gives every error status its own example, addressed to the operation', () => {
      for (const { path, operation } of operations) {
        for (const [status, response] of Object.entries(operation.responses)) {
          if (!/^[45]\d\d$/.test(status)) continue;
          // The token endpoint's errors are OAuth error objects, application/json.
          const content =
            response.content?.['application/problem+json'] ?? response.content?.['application/json'];
          const example = content?.example;
          expect({ id: operation.operationId, status, example }).toMatchObject({
            example: { status: Number(status), instance: concrete(path, operation) },
          });
        }
      }
    });

    // Swagger UI's "Try it out" sends every example as filled in: an optional filter or starting
    // point whose example would narrow the answer to nothing (or contradict another) shows one in
    // its description instead.
    it('gives every parameter an example of its own, or an optional one a value in its description', () => {
      for (const { operation } of operations) {
        for (const parameter of operation.parameters ?? []) {
          const shown =
            parameter.example !== undefined ||
            (parameter.required !== true && /`[^`]+`/.test(parameter.description ?? ''));
          expect({ id: operation.operationId, parameter: parameter.name, shown }).toEqual({
            id: operation.operationId,
            parameter: parameter.name,
            shown: true,
          });
        }
      }
    });

    it('declares every member the readiness examples show', () => {
      const declared = Object.keys(document.components.schemas.HealthIndicatorDto!.properties);
      const details = (
        document.components.schemas.ReadinessResponseDto!.properties.details as {
          example: Record<string, object>;
        }
      ).example;
      for (const indicator of Object.values(details)) {
        expect(declared).toEqual(expect.arrayContaining(Object.keys(indicator)));
      }
    });
  });

  describe('the answer check every e2e request goes through', () => {
    const sut = OpenApiConformance.committed();
    const problem = {
      type: '/problems/not-found',
      title: 'Not found',
      status: 404,
      instance: '/api/processes/X',
      requestId: 'abc',
    };
    const headers = { 'content-type': 'application/problem+json; charset=utf-8', 'x-request-id': 'abc' };

    it('accepts an answer as documented', () => {
      expect(sut.violations('GET', '/api/processes/X', { status: 404, headers, body: problem })).toEqual([]);
    });

    it('names the operation and the field that drift', () => {
      const violations = sut.violations('GET', '/api/processes/X?a=1', {
        status: 404,
        headers: { 'content-type': 'application/problem+json' },
        body: { ...problem, type: '/problems/lost', status: '404' },
      });

      expect(violations).toEqual(
        expect.arrayContaining([
          expect.stringMatching(
            /^GET \/api\/processes\/\{numero\} \(\w+\) answered 404: header X-Request-Id is required/,
          ),
          expect.stringMatching(/answered 404: body\.type must be equal to one of the allowed values/),
          expect.stringMatching(/answered 404: body\.status must be integer/),
        ]),
      );
    });

    it('refuses an undocumented status or content type', () => {
      expect(
        sut.violations('POST', '/api/auth/login', {
          status: 200,
          headers: { 'content-type': 'text/html' },
          body: '',
        }),
      ).toEqual(
        expect.arrayContaining([
          expect.stringContaining('content type "text/html" is not one of application/json'),
        ]),
      );
      expect(sut.violations('GET', '/api/tracking', { status: 200, headers, body: {} })).toEqual(
        expect.arrayContaining([expect.stringContaining('status 200 is not documented')]),
      );
    });
  });
});
