import { OperationsGateway } from '../src/operations/operations.gateway.js';
import {
  anEvent,
  anOperationsDetail,
  anOperationsProcess,
} from '../src/testing/operations-process.factory.js';
import { FakeOperationsGateway } from '../src/testing/fake-operations.gateway.js';
import { syncNow } from './support/sync-now.js';
import { TestApp } from './support/test-app.js';

/**
 * The list's tag as sync writes, which needs an operations system that holds still (a fake): the
 * black-box suite revalidates and compresses against the deployment's live data.
 */
describe('conditional requests as sync writes', () => {
  const gateway = new FakeOperationsGateway();
  let testApp: TestApp;
  let token: string;

  beforeAll(async () => {
    for (let index = 0; index < 12; index++) {
      const process = anOperationsProcess();
      gateway.put(process, anOperationsDetail(process));
    }
    testApp = await TestApp.start({
      override: (builder) => builder.overrideProvider(OperationsGateway).useValue(gateway),
    });
    await syncNow(testApp);
    await testApp.addUser({ username: 'acme', password: 'acme-pass-1', customerIds: ['acme'] });
    token = await testApp.login('acme', 'acme-pass-1');
  });

  afterAll(() => testApp.close());

  const list = (ifNoneMatch?: string) => {
    const request = testApp.http.get('/api/processes').set('Authorization', `Bearer ${token}`);
    return ifNoneMatch === undefined ? request : request.set('If-None-Match', ifNoneMatch);
  };

  it('keeps the list’s tag while nothing changes, and moves it when an item on the page does', async () => {
    const before = await list();
    await syncNow(testApp);
    const unchanged = await list(before.headers.etag);
    expect(unchanged.status).toBe(304);

    const changed = gateway.all()[3]!;
    gateway.put({
      ...changed,
      updatedAt: '2026-03-02T12:00:00Z',
      events: [
        ...changed.events,
        anEvent({ id: 'evt-later', code: 'NOTE', occurredAt: '2026-03-02T11:00:00Z' }),
      ],
    });
    await syncNow(testApp);

    const after = await list(before.headers.etag);
    expect(after.status).toBe(200);
    expect(after.text).toContain('evt-later');
    expect(after.headers.etag).not.toBe(before.headers.etag);
    const revalidated = await list(after.headers.etag);
    expect(revalidated.status).toBe(304);
  });
});
