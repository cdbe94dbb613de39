import { readFileSync, writeFileSync } from 'node:fs';
import { buildOpenApiDocument } from '../src/openapi.js';
import { TestApp } from './support/test-app.js';

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
      'page',
      'pageSize',
      'shipmentFrom',
      'shipmentTo',
      'sort',
      'status',
      'updatedFrom',
      'updatedTo',
    ]);
  });
});
