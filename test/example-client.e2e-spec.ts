import type { AddressInfo } from 'node:net';
import { runExample } from '../examples/portal-client.js';
import { OperationsGateway } from '../src/operations/operations.gateway.js';
import type { ProcessStatus } from '../src/domain/process.vocabulary.js';
import { anOperationsDetail, anOperationsProcess } from '../src/testing/operations-process.factory.js';
import { FakeOperationsGateway } from '../src/testing/fake-operations.gateway.js';
import { OpenApiConformance } from './support/openapi-conformance.js';
import { syncNow } from './support/sync-now.js';
import { TestApp } from './support/test-app.js';

const STATUSES: ProcessStatus[] = ['IN_TRANSIT', 'ARRIVED', 'BOOKED', 'IN_TRANSIT', 'ARRIVED', 'DELIVERED'];

/** The typed client example of examples/, run as a portal would: over a socket, with Node's fetch. */
describe('the generated client example (Node fetch)', () => {
  let testApp: TestApp;
  let baseUrl: string;

  beforeAll(async () => {
    const gateway = new FakeOperationsGateway();
    STATUSES.forEach((status, index) => {
      const process = anOperationsProcess({ numero: `IMP-2026-90000${index}`, status });
      gateway.put(process, anOperationsDetail(process));
    });
    testApp = await TestApp.start({
      override: (builder) => builder.overrideProvider(OperationsGateway).useValue(gateway),
    });
    await syncNow(testApp);
    await testApp.addUser({ username: 'acme', password: 'acme-pass-1', customerIds: ['acme'] });
    await testApp.app.listen(0, '127.0.0.1');
    baseUrl = `http://127.0.0.1:${(testApp.app.getHttpServer().address() as AddressInfo).port}`;
  });

  afterAll(() => testApp.close());

  it('logs in, lists with a multi-value filter, follows Link to the next page and reads a problem', async () => {
    const outcome = await runExample(baseUrl, { username: 'acme', password: 'acme-pass-1' });

    expect(outcome).toEqual({
      totalItems: 4,
      firstPage: ['IMP-2026-900000', 'IMP-2026-900001'],
      nextPage: ['IMP-2026-900003', 'IMP-2026-900004'],
      problem: { type: '/problems/not-found', title: 'Not found', status: 404 },
    });
  });

  it('words refusals for a person, and they conform to the document', async () => {
    const login = await fetch(`${baseUrl}/api/auth/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ username: 'acme', password: 'acme-pass-1' }),
    });
    const { accessToken } = (await login.json()) as { accessToken: string };
    const url = `${baseUrl}/api/processes?foo=1&status=IN_TRANSIT,LOST`;

    const response = await fetch(url, { headers: { Authorization: `Bearer ${accessToken}` } });
    const body = (await response.json()) as { errors: unknown[] };

    expect(response.status).toBe(400);
    expect(body.errors).toEqual(
      expect.arrayContaining([
        { in: 'query', name: 'foo', message: 'unknown parameter' },
        {
          in: 'query',
          name: 'status',
          message: expect.stringMatching(/^must be one of OPEN, BOOKED, IN_TRANSIT, .*CANCELLED/),
        },
      ]),
    );
    const observed = { status: response.status, headers: Object.fromEntries(response.headers), body };
    expect(OpenApiConformance.committed().violations('GET', url, observed)).toEqual([]);
  });
});
