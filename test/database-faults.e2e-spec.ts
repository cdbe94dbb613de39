import pg from 'pg';
import { OperationsGateway } from '../src/operations/operations.gateway.js';
import { SyncService } from '../src/sync/sync.service.js';
import { anOperationsProcess } from '../src/testing/operations-process.factory.js';
import { FakeOperationsGateway } from '../src/testing/fake-operations.gateway.js';
import { syncNow } from './support/sync-now.js';
import { TcpProxy } from '../src/testing/tcp-proxy.js';
import { TestApp } from './support/test-app.js';
import { TEST_DATABASE_TARGETS } from '../src/testing/test-database.js';

const onPostgres = TEST_DATABASE_TARGETS.includes('postgres') ? describe : describe.skip;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function startApp(
  options: Parameters<typeof TestApp.start>[0] = {},
): Promise<{ testApp: TestApp; token: string }> {
  const gateway = new FakeOperationsGateway().putAll(
    anOperationsProcess(),
    anOperationsProcess(),
    anOperationsProcess(),
  );
  const testApp = await TestApp.start({
    target: 'postgres',
    ...options,
    override: (builder) => builder.overrideProvider(OperationsGateway).useValue(gateway),
  });
  await syncNow(testApp);
  await testApp.addUser({ username: 'acme', password: 'acme-pass-1', customerIds: ['acme'] });
  return { testApp, token: await testApp.login('acme', 'acme-pass-1') };
}

/** What the service answers while its database fails: the list, or a 503 that says why. */
function expectServedOrUnavailable(response: {
  status: number;
  body: Record<string, unknown>;
  headers: Record<string, string>;
}) {
  if (response.status === 200) return;
  expect(response.status).toBe(503);
  expect(response.body).toMatchObject({ type: '/problems/service-unavailable' });
  expect(response.headers['retry-after']).toBe('5');
}

onPostgres('the service when its PostgreSQL fails', () => {
  describe('backends terminated under load (pg_terminate_backend)', () => {
    let testApp: TestApp;
    let token: string;

    beforeAll(async () => ({ testApp, token } = await startApp()));
    // Closing waits for the connections the terminations left to be given up: slow on a loaded machine.
    afterAll(() => testApp.close(), 60_000);

    async function terminateBackends(): Promise<number> {
      const database = new URL(testApp.config.database.url!).pathname.slice(1);
      const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
      await admin.connect();
      try {
        const { rowCount } = await admin.query(
          'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
          [database],
        );
        return rowCount ?? 0;
      } finally {
        await admin.end();
      }
    }

    it('keeps running, answers 200 or 503 meanwhile, and 200 again on new connections', async () => {
      const list = () => testApp.http.get('/api/processes').set('Authorization', `Bearer ${token}`);
      const answers: Array<Awaited<ReturnType<typeof list>>> = [];
      let loading = true;
      const load = Array.from({ length: 4 }, async () => {
        while (loading) answers.push(await list());
      });
      // The sync's lock session and its page writes are among the backends terminated.
      const sync = testApp.app.get(SyncService).run();
      let terminated = 0;
      for (let round = 0; round < 3; round++) {
        await sleep(200);
        terminated += await terminateBackends();
      }
      loading = false;
      await Promise.all(load);
      await sync;

      expect(terminated).toBeGreaterThan(0);
      expect(answers.length).toBeGreaterThan(0);
      for (const answer of answers) expectServedOrUnavailable(answer);
      // Within a second of the last termination, the service answers on new connections.
      const deadline = Date.now() + 1000;
      let status = 0;
      while (status !== 200 && Date.now() < deadline) status = (await list()).status;
      expect(status).toBe(200);
      await syncNow(testApp);
    });
  });

  describe('a database that stops answering (a frozen network)', () => {
    let proxy: TcpProxy;
    let testApp: TestApp;
    let token: string;

    beforeAll(async () => {
      const server = new URL(process.env.TEST_DATABASE_URL!);
      proxy = await TcpProxy.start({ host: server.hostname, port: Number(server.port || 5432) });
      ({ testApp, token } = await startApp({
        databaseUrl: (url) => proxy.urlFor(url),
        env: { DATABASE_STATEMENT_TIMEOUT_MS: '500' },
      }));
    });

    afterAll(async () => {
      proxy.resume();
      await testApp.close();
      await proxy.close();
    });

    it('answers 503 with Retry-After and reports unready while frozen, then recovers', async () => {
      const list = () => testApp.http.get('/api/processes').set('Authorization', `Bearer ${token}`);
      await list().expect(200);

      proxy.freeze();
      const answers = await Promise.all([list(), list(), list()]);
      for (const answer of answers) {
        expect(answer.status).toBe(503);
        expectServedOrUnavailable(answer);
      }
      await testApp.http.get('/health/ready').expect(503);

      proxy.resume();
      const deadline = Date.now() + 5000;
      let status = 0;
      while (status !== 200 && Date.now() < deadline) status = (await list()).status;
      expect(status).toBe(200);
      await testApp.http.get('/health/ready').expect(200);
    });
  });
});
