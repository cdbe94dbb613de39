import { TestApp } from './support/test-app.js';

const EXPECTED_BODY = {
  type: '/problems/endpoint-retired',
  title: 'Endpoint retired',
  status: 410,
  detail:
    'GET /api/tracking was retired in March 2026. Use GET /api/processes to list processes and GET /api/processes/{numero} for one process.',
  successors: { list: '/api/processes', detail: '/api/processes/{numero}' },
};

describe('Retired /api/tracking', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await TestApp.start();
  });

  afterAll(() => testApp.close());

  it.each([
    ['get', '/api/tracking'],
    ['get', '/api/tracking?numero=IMP-2026-000123&foo[]=1'],
    ['get', '/api/tracking/IMP-2026-000123'],
    ['get', '/api/tracking/a/b/c'],
    ['post', '/api/tracking'],
    ['put', '/api/tracking/x'],
    ['patch', '/api/tracking'],
    ['delete', '/api/tracking'],
    ['options', '/api/tracking'],
  ] as const)('%s %s answers 410 with the successors', async (method, path) => {
    const response = await testApp.http[method](path).expect(410);
    expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(response.headers.link).toBe('</api/processes>; rel="successor-version"');
    expect(response.headers.deprecation).toBe('@1772323200');
    expect(response.headers.sunset).toBe('Sun, 01 Mar 2026 00:00:00 GMT');
    expect(response.body).toMatchObject(EXPECTED_BODY);
  });

  it('answers HEAD with 410 and the headers', async () => {
    const response = await testApp.http.head('/api/tracking').expect(410);
    expect(response.headers.sunset).toBe('Sun, 01 Mar 2026 00:00:00 GMT');
  });

  it('ignores a token, valid or not', async () => {
    const response = await testApp.http
      .get('/api/tracking')
      .set('Authorization', 'Bearer garbage')
      .expect(410);
    expect(response.body).toMatchObject(EXPECTED_BODY);
  });
});
