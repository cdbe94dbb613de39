import { jest } from '@jest/globals';
import { InitialDataState } from '../src/demo/initial-data.state.js';
import { ShutdownState } from '../src/lifecycle/shutdown.state.js';
import { OperationsGateway } from '../src/operations/operations.gateway.js';
import { RedisConnection } from '../src/redis/redis.connection.js';
import { SyncService } from '../src/sync/sync.service.js';
import { anOperationsProcess } from '../src/testing/operations-process.factory.js';
import { FakeOperationsGateway } from '../src/testing/fake-operations.gateway.js';
import { APP_TEST_DATABASE_TARGET } from '../src/testing/test-database.js';
import { TestApp } from './support/test-app.js';

describe('Health', () => {
  const gateway = new FakeOperationsGateway().put(anOperationsProcess({ numero: 'IMP-2026-000001' }));
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await TestApp.start({
      override: (builder) => builder.overrideProvider(OperationsGateway).useValue(gateway),
    });
  });

  afterAll(() => testApp.close());

  afterEach(() => {
    jest.restoreAllMocks();
    gateway.failing = false;
  });

  const ready = () => testApp.http.get('/health/ready');

  const expectNotReady = async (down: string) => {
    const response = await ready().expect(503);
    expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(response.headers['retry-after']).toBe('5');
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.body).toMatchObject({
      type: '/problems/not-ready',
      title: 'Service not ready',
      status: 503,
      instance: '/health/ready',
      requestId: response.headers['x-request-id'],
      checks: { status: 'error', error: { [down]: { status: 'down' } } },
    });
    expect(response.body.detail).toContain(down);
    return response.body as { detail: string; checks: { details: Record<string, { status: string }> } };
  };

  it('is live, without a token', async () => {
    const response = await testApp.http.get('/health/live').expect(200);
    expect(response.body).toEqual({ status: 'ok' });
    expect(response.headers['cache-control']).toBe('no-store');
  });

  it('is ready when the database answers, and reports every component', async () => {
    const response = await ready().expect(200);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(response.body).toEqual({
      status: 'ok',
      info: expect.any(Object),
      error: {},
      details: {
        database: { status: 'up', driver: APP_TEST_DATABASE_TARGET, responseTime: expect.any(Number) },
        initialData: { status: 'up' },
        lifecycle: { status: 'up' },
        operations: { status: 'up', adapter: 'built-in', lastSync: null },
        redis: { status: 'up', enabled: false },
      },
    });
  });

  it('is not ready when the database fails, and says so without its error text', async () => {
    jest
      .spyOn(testApp.database, 'ping')
      .mockRejectedValue(new Error('connect ECONNREFUSED 10.1.2.3:5432 SELECT secret FROM users'));
    const body = await expectNotReady('database');
    expect(body.checks.details.database).toMatchObject({
      status: 'down',
      message: 'the database did not answer',
    });
    expect(JSON.stringify(body)).not.toMatch(/ECONNREFUSED|10\.1\.2\.3|SELECT/);
  });

  it('is not ready when the database does not answer in time', async () => {
    jest.spyOn(testApp.database, 'ping').mockReturnValue(new Promise<void>(() => undefined));
    const body = await expectNotReady('database');
    expect(body.checks.details.database).toMatchObject({ message: expect.stringMatching(/timeout/) });
  });

  it('is not ready until the initial data is there (demo mode)', async () => {
    jest.spyOn(testApp.app.get(InitialDataState), 'isReady', 'get').mockReturnValue(false);
    await expectNotReady('initialData');
  });

  it('is not ready while shutting down', async () => {
    jest.spyOn(testApp.app.get(ShutdownState), 'isShuttingDown', 'get').mockReturnValue(true);
    const body = await expectNotReady('lifecycle');
    expect(body.detail).toContain('shutting down');
  });

  it('stays ready with Redis down, reporting it degraded', async () => {
    const redis = testApp.app.get(RedisConnection);
    jest.spyOn(redis, 'enabled', 'get').mockReturnValue(true);
    jest.spyOn(redis, 'available', 'get').mockReturnValue(false);
    const response = await ready().expect(200);
    expect(response.body.status).toBe('degraded');
    expect(response.body.details.redis).toEqual({
      status: 'degraded',
      enabled: true,
      available: false,
      message: 'Redis is not connected or not answering',
    });
  });

  it('stays ready when the operations system fails, reporting the failed sync', async () => {
    gateway.failing = true;
    const outcome = await testApp.app.get(SyncService).run();
    expect(outcome.status).toBe('failed');
    const response = await ready().expect(200);
    expect(response.body.status).toBe('degraded');
    expect(response.body.details.operations).toEqual({
      status: 'degraded',
      adapter: 'built-in',
      lastSync: { status: 'failed', finishedAt: expect.stringMatching(/Z$/), lagSeconds: null },
      message: 'last sync failed',
    });
  });
});
