import { randomUUID } from 'node:crypto';
import { jest } from '@jest/globals';
import { Webhook } from 'standardwebhooks';
import { SyncService } from '../../src/sync/sync.service.js';
import { startTestSandbox, type TestSandbox } from '../support/sandbox.js';
import { syncNow } from '../support/sync-now.js';
import { TestApp } from '../support/test-app.js';
import { waitUntil } from '../support/wait-until.js';

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const PATH = '/api/operations/notifications';

interface Signed {
  headers: Record<string, string>;
  body: string;
}

/** A notification as the operations system sends it, signed by the Standard Webhooks library. */
function signed(
  body: unknown = {
    type: 'processes.changed',
    timestamp: new Date().toISOString(),
    data: { numeros: ['IMP-2026-000001'] },
  },
  { id = `msg_${randomUUID()}`, at = new Date(), secret = SECRET } = {},
): Signed {
  const text = JSON.stringify(body);
  return {
    body: text,
    headers: {
      'content-type': 'application/json',
      'webhook-id': id,
      'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
      'webhook-signature': new Webhook(secret).sign(id, at, text),
    },
  };
}

describe('Change notifications from the operations system', () => {
  let sandbox: TestSandbox;
  let testApp: TestApp;
  let staffToken: string;

  beforeAll(async () => {
    sandbox = await startTestSandbox();
    testApp = await TestApp.start({ env: { ...sandbox.env, OPERATIONS_NOTIFY_SECRET: SECRET } });
    await testApp.addUser({ username: 'operator', password: 'operator-pass-1', role: 'staff' });
    staffToken = await testApp.login('operator', 'operator-pass-1');
    // The first pass brings the whole data set; the notifications then bring what changes.
    await syncNow(testApp);
  });

  afterAll(async () => {
    await testApp.close();
    await sandbox.close();
  });

  afterEach(() => jest.restoreAllMocks());

  const send = ({ headers, body }: Signed) => testApp.http.post(PATH).set(headers).send(body);

  const listed = async (numero: string): Promise<boolean> => {
    const response = await testApp.http
      .get(`/api/processes/${numero}`)
      .set('Authorization', `Bearer ${staffToken}`);
    return response.status === 200;
  };

  it('syncs within a second of a verified notification', async () => {
    const { numero } = sandbox.server.sandbox.createProcess({
      customer: 'acme',
      type: 'IMPORT',
      mode: 'SEA',
    });
    const sentAt = Date.now();
    await send(signed()).expect(202);
    await waitUntil(() => listed(numero), 5000);
    // What the bound is about: the pass started within a second (the list shows it right after).
    expect(Date.parse(testApp.app.get(SyncService).getLastOutcome()?.startedAt ?? '')).toBeLessThan(
      sentAt + 1000,
    );
  });

  it('folds a burst of notifications into one or two passes', async () => {
    const sync = testApp.app.get(SyncService);
    const run = jest.spyOn(sync, 'run');
    await Promise.all(Array.from({ length: 20 }, () => send(signed()).expect(202)));
    await waitUntil(() => Promise.resolve(run.mock.calls.length > 0 && !sync.running), 5000);
    expect(run.mock.calls.length).toBeLessThanOrEqual(2);
  });

  it('accepts a replayed id and does nothing with it', async () => {
    const message = signed();
    await send(message).expect(202);
    const sync = testApp.app.get(SyncService);
    await waitUntil(() => Promise.resolve(!sync.running && sync.getLastOutcome() !== null), 5000);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const run = jest.spyOn(sync, 'run');
    await send(message).expect(202);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(run).not.toHaveBeenCalled();
  });

  it.each([
    [
      'a signature made with another secret',
      () => signed(undefined, { secret: 'whsec_dGhpcyBpcyBhbm90aGVyIHNlY3JldA==' }),
    ],
    ['a timestamp ten minutes old', () => signed(undefined, { at: new Date(Date.now() - 600_000) })],
    ['no signature at all', () => ({ ...signed(), headers: { 'content-type': 'application/json' } })],
    [
      'a body changed after signing',
      () => {
        const message = signed();
        return { ...message, body: message.body.replace('IMP-2026-000001', 'IMP-2026-000002') };
      },
    ],
  ])('refuses %s with 401', async (_why, message) => {
    const response = await send(message()).expect(401);
    expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
  });

  it.each([
    [
      'another type',
      { type: 'processes.deleted', timestamp: new Date().toISOString(), data: { numeros: [] } },
    ],
    ['no data', { type: 'processes.changed', timestamp: new Date().toISOString() }],
    [
      'numeros that are not strings',
      { type: 'processes.changed', timestamp: new Date().toISOString(), data: { numeros: [1] } },
    ],
    [
      'a member it does not name',
      { type: 'processes.changed', timestamp: new Date().toISOString(), data: { numeros: [] }, extra: 1 },
    ],
  ])('refuses a signed body with %s with 400', async (_why, body) => {
    const response = await send(signed(body)).expect(400);
    expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
  });
});

describe('Change notifications without OPERATIONS_NOTIFY_SECRET', () => {
  it('do not exist: 404', async () => {
    const testApp = await TestApp.start();
    try {
      await testApp.http.post(PATH).set(signed().headers).send(signed().body).expect(404);
    } finally {
      await testApp.close();
    }
  });
});
