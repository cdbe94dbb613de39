import { readFileSync } from 'node:fs';
import { RequestMethod } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants.js';
import { DiscoveryService, MetadataScanner, Reflector } from '@nestjs/core';
import { REQUIRED_ACCESS } from '../src/auth/access/requires-access.decorator.js';
import { IS_PUBLIC } from '../src/common/http/public.decorator.js';
import { SCOPE_NAMES } from '../src/domain/scopes.js';
import { TestApp } from './support/test-app.js';

interface DocumentOperation {
  operationId: string;
  security: Array<Record<string, string[]>>;
  parameters?: Array<{ name: string; in: string; example?: unknown }>;
}

const document = JSON.parse(readFileSync(new URL('../openapi.json', import.meta.url), 'utf8')) as {
  paths: Record<string, Record<string, DocumentOperation>>;
};
const operations = Object.entries(document.paths).flatMap(([path, item]) =>
  Object.entries(item).map(([method, operation]) => ({ path, method, operation })),
);
/** The scope an operation declares, 'user' where only a user's own token will do, null when public. */
const requiredOf = (operation: DocumentOperation): string | null => {
  if (operation.security.length === 0) return null;
  return operation.security.find((requirement) => 'oauth2' in requirement)?.oauth2?.[0] ?? 'user';
};
const concrete = (path: string, operation: DocumentOperation) =>
  path.replace(/\{([^}]+)\}/g, (_, name: string) =>
    String(operation.parameters?.find((parameter) => parameter.name === name)?.example),
  );

describe('Scopes at the route', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await TestApp.start();
    await testApp.addCustomers({ id: 'acme', name: 'ACME Importadora Ltda' });
    await testApp.addUser({ username: 'acme', password: 'acme-pass-1', customerIds: ['acme'] });
  });

  afterAll(() => testApp.close());

  it('has every route declare a scope, that only a user’s own token will do, or that it is public', () => {
    const reflector = testApp.app.get(Reflector);
    const scanner = testApp.app.get(MetadataScanner);
    const routes: string[] = [];
    const undeclared: string[] = [];
    for (const { instance, metatype } of testApp.app.get(DiscoveryService).getControllers()) {
      if (metatype === null || instance === undefined) continue;
      const prototype = Object.getPrototypeOf(instance) as Record<string, () => unknown>;
      for (const name of scanner.getAllMethodNames(prototype)) {
        const handler = prototype[name]!;
        if (Reflect.getMetadata(PATH_METADATA, handler) === undefined) continue;
        const targets = [handler, metatype];
        const declared =
          reflector.getAllAndOverride<unknown>(IS_PUBLIC, targets) === true ||
          reflector.getAllAndOverride<unknown>(REQUIRED_ACCESS, targets) !== undefined;
        const method = RequestMethod[Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod];
        routes.push(`${metatype.name}.${name} (${method})`);
        if (!declared) undeclared.push(routes.at(-1)!);
      }
    }
    // Every operation of the document was seen (some routes, such as the retired ones, have several handlers).
    expect(routes.length).toBeGreaterThanOrEqual(operations.length);
    expect(undeclared).toEqual([]);
  });

  it('declares in the document, for every protected operation, the bearer scheme and at most one scope', () => {
    for (const { operation } of operations.filter(({ operation }) => operation.security.length > 0)) {
      expect({ id: operation.operationId, security: operation.security }).toEqual({
        id: operation.operationId,
        security: expect.arrayContaining([{ bearer: [] }]),
      });
      const scope = requiredOf(operation);
      expect(scope === 'user' || SCOPE_NAMES.includes(scope as never)).toBe(true);
    }
  });

  describe.each(SCOPE_NAMES)('a client token with only %s', (scope) => {
    let token: string;

    beforeAll(async () => {
      const user = await testApp.login('acme', 'acme-pass-1');
      const client = (
        await testApp.http
          .post('/api/clients')
          .set('Authorization', `Bearer ${user}`)
          .send({ name: scope, scopes: [scope] })
          .expect(201)
      ).body as { clientId: string; clientSecret: string };
      token = (
        await testApp.http.post('/api/oauth/token').type('form').send({
          grant_type: 'client_credentials',
          client_id: client.clientId,
          client_secret: client.clientSecret,
        })
      ).body.access_token as string;
    });

    it.each(operations.filter(({ operation }) => requiredOf(operation) !== null))(
      'gets through to $operation.operationId exactly when it declares that scope',
      async ({ path, method, operation }) => {
        const required = requiredOf(operation);
        // The stream stays open once let through: its own suites cover it.
        if (required === scope && operation.operationId === 'streamChanges') return;
        const request = testApp.http[method as 'get' | 'post' | 'patch' | 'delete'](
          concrete(path, operation),
        );
        const response = await request.set('Authorization', `Bearer ${token}`);

        if (required === scope) {
          expect([401, 403]).not.toContain(response.status);
          return;
        }
        expect(response.status).toBe(403);
        expect(response.body.type).toBe('/problems/insufficient-scope');
        expect(response.headers['www-authenticate']).toBe(
          required === 'user'
            ? 'Bearer realm="process-lookup", error="insufficient_scope"'
            : `Bearer realm="process-lookup", error="insufficient_scope", scope="${required}"`,
        );
      },
    );
  });
});
