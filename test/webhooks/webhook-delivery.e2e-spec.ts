import { sql } from 'drizzle-orm';
import { UsersRepository } from '../../src/auth/users/users.repository.js';
import { ChangeRecorder } from '../../src/changes/change-recorder.js';
import { Clock } from '../../src/common/clock.js';
import { DeliveriesRetention } from '../../src/webhooks/delivery/deliveries-retention.js';
import { RETRY_DELAYS_MS } from '../../src/webhooks/delivery/retry-schedule.js';
import { WebhookDeliverer } from '../../src/webhooks/delivery/webhook-deliverer.js';
import { FakeClock } from '../../src/testing/fake-clock.js';
import { closedPort } from '../../src/testing/closed-port.js';
import { TestApp } from '../support/test-app.js';
import { APP_TEST_DATABASE_TARGET } from '../../src/testing/test-database.js';
import { waitUntil } from '../support/wait-until.js';
import { aChange, recordChanges } from './support/record-changes.js';
import { verifiedWith, WebhookReceiver } from './support/webhook-receiver.js';

interface Created {
  id: string;
  secret: string;
}

interface Delivery {
  id: string;
  messageId: string;
  kind: string;
  attempt: number;
  responseStatus: number | null;
  error: string | null;
  nextAttemptAt: string | null;
}

/** Just past the longest a jittered delay can be (+10%). */
const pastDelay = (delayMs: number) => Math.ceil(delayMs * 1.1) + 1000;

describe.each([APP_TEST_DATABASE_TARGET])('webhook delivery (%s)', (target) => {
  let testApp: TestApp;
  let clock: FakeClock;
  let receiver: WebhookReceiver;
  let token: string;
  let staffToken: string;
  let deliverer: WebhookDeliverer;

  const subscribe = async (body: object, as = token): Promise<Created> => {
    const response = await testApp.http
      .post('/api/webhooks')
      .set('Authorization', `Bearer ${as}`)
      .send({ url: receiver.url, ...body })
      .expect(201);
    return response.body as Created;
  };
  const setStatus = (id: string, status: 'ACTIVE' | 'PAUSED') =>
    testApp.http
      .patch(`/api/webhooks/${id}`)
      .set('Authorization', `Bearer ${token}`)
      .send({ status })
      .expect(200);
  const webhook = async (id: string) =>
    (await testApp.http.get(`/api/webhooks/${id}`).set('Authorization', `Bearer ${token}`).expect(200))
      .body as { status: string; disabledReason: string | null; position: string; failedAttempts: number };
  const deliveries = async (id: string): Promise<Delivery[]> =>
    (
      (
        await testApp.http
          .get(`/api/webhooks/${id}/deliveries?limit=100`)
          .set('Authorization', `Bearer ${token}`)
          .expect(200)
      ).body as { data: Delivery[] }
    ).data;

  beforeAll(async () => {
    clock = new FakeClock(new Date());
    testApp = await TestApp.start({
      target,
      env: { WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' },
      override: (builder) => builder.overrideProvider(Clock).useValue(clock),
    });
    deliverer = testApp.app.get(WebhookDeliverer);
    await testApp.addCustomers({ id: 'acme', name: 'ACME' }, { id: 'globex', name: 'Globex' });
    await testApp.addUser({ username: 'acme', password: 'acme-pass-1', customerIds: ['acme'] });
    await testApp.addUser({ username: 'operator', password: 'operator-pass-1', role: 'staff' });
    token = await testApp.login('acme', 'acme-pass-1');
    staffToken = await testApp.login('operator', 'operator-pass-1');
  });

  beforeEach(async () => {
    receiver = await WebhookReceiver.start();
  });

  afterEach(async () => {
    await deliverer.drain();
    for (const as of [token, staffToken]) {
      const { body } = await testApp.http.get('/api/webhooks').set('Authorization', `Bearer ${as}`);
      for (const { id } of (body as { data: Array<{ id: string }> }).data) {
        await testApp.http.delete(`/api/webhooks/${id}`).set('Authorization', `Bearer ${as}`).expect(204);
      }
    }
    await receiver.close();
  });

  afterAll(() => testApp.close());

  it('delivers every visible change in feed order, signed, with the change’s cursor as webhook-id', async () => {
    const created = await subscribe({});
    await recordChanges(
      testApp,
      aChange('acme', 'IMP-1', 'PROCESS_ADDED'),
      aChange('globex', 'IMP-2', 'PROCESS_ADDED'),
      aChange('acme', 'IMP-1', 'STATUS_CHANGED'),
    );
    await recordChanges(testApp, aChange('acme', 'IMP-3', 'FOLLOW_ADDED'));

    await deliverer.drain();

    const { body: feed } = await testApp.http.get('/api/changes').set('Authorization', `Bearer ${token}`);
    const changes = (feed as { data: Array<{ cursor: string; recordedAt: string }> }).data.slice(-3);
    expect(receiver.received.map((delivery) => [delivery.id, delivery.payload.type])).toEqual([
      [changes[0]!.cursor, 'process.process_added'],
      [changes[1]!.cursor, 'process.status_changed'],
      [changes[2]!.cursor, 'process.follow_added'],
    ]);
    for (const [index, delivery] of receiver.received.entries()) {
      expect(verifiedWith(created.secret, delivery, clock)).toBe(true);
      expect(delivery.contentType).toBe('application/json');
      expect(delivery.timestamp).toBe(String(Math.floor(clock.now().getTime() / 1000)));
      expect(delivery.payload).toEqual({
        type: delivery.payload.type,
        timestamp: changes[index]!.recordedAt,
        data: changes[index],
      });
    }
    expect((await webhook(created.id)).position).toBe(changes[2]!.cursor);
    expect(
      (await deliveries(created.id)).map((d) => [d.messageId, d.attempt, d.responseStatus, d.error]),
    ).toEqual([
      [changes[2]!.cursor, 1, 200, null],
      [changes[1]!.cursor, 1, 200, null],
      [changes[0]!.cursor, 1, 200, null],
    ]);
  });

  it('dates a message with its change’s second even when the change was recorded at its last half millisecond', async () => {
    await subscribe({});
    // Recorded and re-dated in one transaction: the feed notifies at commit, and a delivery woken
    // by it would otherwise send the change with the time it was first recorded at.
    await testApp.database.db.transaction(async (tx) => {
      await testApp.app.get(ChangeRecorder).appendDrafts(tx, [aChange('acme', 'IMP-7', 'PROCESS_ADDED')]);
      // Milliseconds rounded to the nearest would make this the next second.
      await tx.execute(
        sql`UPDATE process_changes SET recorded_at = timestamptz '2026-03-14T11:00:00.9996Z' WHERE numero = 'IMP-7'`,
      );
    });

    await deliverer.drain();

    const [delivery] = receiver.received;
    expect(delivery?.payload.data).toMatchObject({ numero: 'IMP-7', recordedAt: '2026-03-14T11:00:00Z' });
    expect(delivery?.payload.timestamp).toBe('2026-03-14T11:00:00Z');
  });

  it('delivers only the kinds asked for, and staff subscriptions every customer', async () => {
    await subscribe({ kinds: ['STATUS_CHANGED'] });
    const staffReceiver = await WebhookReceiver.start();
    try {
      await subscribe({ url: staffReceiver.url }, staffToken);
      await recordChanges(
        testApp,
        aChange('acme', 'IMP-4', 'PROCESS_UPDATED'),
        aChange('globex', 'IMP-5', 'STATUS_CHANGED'),
        aChange('acme', 'IMP-6', 'STATUS_CHANGED'),
      );

      await deliverer.drain();

      expect(receiver.acceptedNumeros).toEqual(['IMP-6']);
      expect(staffReceiver.acceptedNumeros).toEqual(['IMP-4', 'IMP-5', 'IMP-6']);
    } finally {
      await staffReceiver.close();
    }
  });

  it('delivers an ETA move as process.eta_changed with the ETA before and the delay', async () => {
    await subscribe({ kinds: ['ETA_CHANGED'] });
    await recordChanges(testApp, aChange('acme', 'IMP-7', 'FOLLOW_ADDED'), {
      ...aChange('acme', 'IMP-7', 'ETA_CHANGED'),
      details: { eta: '2026-03-30', previousEta: '2026-03-25', etaDelayDays: 5 },
    });

    await deliverer.drain();

    expect(receiver.received.map((delivery) => delivery.payload)).toEqual([
      {
        type: 'process.eta_changed',
        timestamp: expect.any(String),
        data: expect.objectContaining({
          kind: 'ETA_CHANGED',
          numero: 'IMP-7',
          eta: '2026-03-30',
          previousEta: '2026-03-25',
          etaDelayDays: 5,
        }),
      },
    ]);
  });

  it('delivers to a user of several customers the changes of each, in feed order, and no other', async () => {
    await testApp.addCustomers({ id: 'initech', name: 'Initech' });
    await testApp.addUser({ username: 'broker', password: 'broker-pass-1', customerIds: ['acme', 'globex'] });
    const brokerToken = await testApp.login('broker', 'broker-pass-1');
    const created = await subscribe({ kinds: ['PROCESS_ADDED', 'STATUS_CHANGED'] }, brokerToken);
    try {
      await recordChanges(
        testApp,
        aChange('globex', 'IMP-30', 'PROCESS_ADDED'),
        aChange('initech', 'IMP-31', 'PROCESS_ADDED'),
        aChange('acme', 'IMP-32', 'FOLLOW_ADDED'),
        aChange('acme', 'IMP-33', 'STATUS_CHANGED'),
        aChange('globex', 'IMP-34', 'STATUS_CHANGED'),
      );

      await deliverer.drain();

      expect(receiver.acceptedNumeros).toEqual(['IMP-30', 'IMP-33', 'IMP-34']);
    } finally {
      await testApp.http
        .delete(`/api/webhooks/${created.id}`)
        .set('Authorization', `Bearer ${brokerToken}`)
        .expect(204);
    }
  });

  it('tries a failed change again on the schedule, later changes waiting behind it, with the same webhook-id', async () => {
    const created = await subscribe({});
    let failures = 2;
    receiver.answer = () => (failures-- > 0 ? { status: 500 } : { status: 204 });
    await recordChanges(testApp, aChange('acme', 'IMP-7'), aChange('acme', 'IMP-8'));

    await deliverer.drain();
    expect(receiver.received.map((d) => d.payload.data.numero)).toEqual(['IMP-7']);
    const [first] = await deliveries(created.id);
    expect(first).toMatchObject({ attempt: 1, responseStatus: 500, error: 'the receiver answered 500' });
    const due = Date.parse(first!.nextAttemptAt!) - clock.now().getTime();
    expect(due).toBeGreaterThanOrEqual(RETRY_DELAYS_MS[0] * 0.9 - 1000);
    expect(due).toBeLessThanOrEqual(RETRY_DELAYS_MS[0] * 1.1);

    clock.advance(pastDelay(RETRY_DELAYS_MS[0]));
    await deliverer.drain();
    expect(receiver.received).toHaveLength(2);
    clock.advance(pastDelay(RETRY_DELAYS_MS[1]));
    await deliverer.drain();

    expect(receiver.received.map((d) => d.payload.data.numero)).toEqual(['IMP-7', 'IMP-7', 'IMP-7', 'IMP-8']);
    expect(new Set(receiver.received.slice(0, 3).map((d) => d.id)).size).toBe(1);
    expect((await deliveries(created.id)).map((d) => [d.attempt, d.responseStatus])).toEqual([
      [1, 204],
      [3, 204],
      [2, 500],
      [1, 500],
    ]);
  });

  it('honours a longer Retry-After on 429, and treats a redirect as a failure', async () => {
    const created = await subscribe({});
    receiver.answer = () => ({ status: 429, headers: { 'Retry-After': '600' } });
    await recordChanges(testApp, aChange('acme', 'IMP-9'));

    await deliverer.drain();
    const [limited] = await deliveries(created.id);
    // The log shows instants to the second.
    expect(Math.ceil((Date.parse(limited!.nextAttemptAt!) - clock.now().getTime()) / 1000)).toBe(600);

    receiver.answer = () => ({ status: 302, headers: { Location: `${receiver.url}/elsewhere` } });
    clock.advance(600_000);
    await deliverer.drain();

    const [redirected] = await deliveries(created.id);
    expect(redirected).toMatchObject({ attempt: 2, responseStatus: 302 });
    expect(redirected!.error).toContain('redirects are not followed');
    expect(receiver.received).toHaveLength(2);
  });

  it('disables the subscription on 410, and a PATCH to ACTIVE resumes at the same change', async () => {
    const created = await subscribe({});
    receiver.answer = () => ({ status: 410 });
    await recordChanges(testApp, aChange('acme', 'IMP-10'));

    await deliverer.drain();
    expect(await webhook(created.id)).toMatchObject({
      status: 'DISABLED',
      disabledReason: 'the receiver answered 410 Gone',
    });

    receiver.answer = () => ({ status: 200 });
    await setStatus(created.id, 'ACTIVE');
    await deliverer.drain();

    expect(receiver.received.map((d) => d.payload.data.numero)).toEqual(['IMP-10', 'IMP-10']);
    expect(await webhook(created.id)).toMatchObject({ status: 'ACTIVE', disabledReason: null });
  });

  it('disables the subscription when the last retry fails too', async () => {
    const created = await subscribe({});
    receiver.answer = () => ({ status: 503 });
    await recordChanges(testApp, aChange('acme', 'IMP-11'));

    await deliverer.drain();
    for (const delay of RETRY_DELAYS_MS) {
      clock.advance(pastDelay(delay));
      await deliverer.drain();
    }

    expect(receiver.received).toHaveLength(RETRY_DELAYS_MS.length + 1);
    expect(await webhook(created.id)).toMatchObject({
      status: 'DISABLED',
      disabledReason: 'no success after 10 attempts (last: the receiver answered 503)',
    });
    expect((await deliveries(created.id))[0]).toMatchObject({ attempt: 10, nextAttemptAt: null });
  });

  it('does not deliver while paused, and resumes where it stopped', async () => {
    const created = await subscribe({});
    await setStatus(created.id, 'PAUSED');
    await recordChanges(testApp, aChange('acme', 'IMP-12'));
    await deliverer.drain();
    expect(receiver.received).toEqual([]);

    await setStatus(created.id, 'ACTIVE');
    await deliverer.drain();

    expect(receiver.acceptedNumeros).toEqual(['IMP-12']);
  });

  it('sends nothing more once paused mid-way through a backlog, but the attempt in flight', async () => {
    const created = await subscribe({});
    // The receiver's owner pauses the webhook while the first change is being delivered.
    receiver.answer = async (delivery) => {
      if (receiver.received.indexOf(delivery) === 0) await setStatus(created.id, 'PAUSED');
      return { status: 200 };
    };
    await recordChanges(
      testApp,
      aChange('acme', 'IMP-13'),
      aChange('acme', 'IMP-14'),
      aChange('acme', 'IMP-15'),
    );
    await deliverer.drain();
    expect(receiver.acceptedNumeros).toEqual(['IMP-13']);

    await setStatus(created.id, 'ACTIVE');
    await deliverer.drain();
    expect(receiver.acceptedNumeros).toEqual(['IMP-13', 'IMP-14', 'IMP-15']);
  });

  it('holds a disabled user’s webhooks until the user is enabled again', async () => {
    await subscribe({});
    const users = testApp.app.get(UsersRepository);
    await users.update('acme', { active: false });
    try {
      await recordChanges(testApp, aChange('acme', 'IMP-22'));
      await deliverer.drain();
      expect(receiver.received).toEqual([]);
    } finally {
      await users.update('acme', { active: true });
    }

    await deliverer.drain();

    expect(receiver.acceptedNumeros).toEqual(['IMP-22']);
  });

  it('replays from a cursor with the same webhook-ids', async () => {
    const created = await subscribe({});
    await recordChanges(testApp, aChange('acme', 'IMP-13'), aChange('acme', 'IMP-14'));
    await deliverer.drain();
    const firstIds = receiver.received.map((d) => d.id);

    const { body: feed } = await testApp.http.get('/api/changes').set('Authorization', `Bearer ${token}`);
    const all = (feed as { data: Array<{ cursor: string }> }).data;
    const beforeThem = all[all.length - 3]!.cursor;
    await testApp.http
      .post(`/api/webhooks/${created.id}/replay`)
      .set('Authorization', `Bearer ${token}`)
      .send({ after: beforeThem })
      .expect(202);
    await deliverer.drain();

    expect(receiver.received.map((d) => d.id)).toEqual([...firstIds, ...firstIds]);
  });

  it('signs with both secrets for 24 h after a rotation, then with the new one only', async () => {
    const created = await subscribe({});
    const { body: rotated } = await testApp.http
      .post(`/api/webhooks/${created.id}/secret`)
      .set('Authorization', `Bearer ${token}`)
      .expect(200);
    const newSecret = (rotated as { secret: string }).secret;

    await recordChanges(testApp, aChange('acme', 'IMP-15'));
    await deliverer.drain();
    const [during] = receiver.received;
    expect(during!.signature.split(' ')).toHaveLength(2);
    expect([verifiedWith(newSecret, during!, clock), verifiedWith(created.secret, during!, clock)]).toEqual([
      true,
      true,
    ]);

    clock.advance(24 * 3600_000 + 1000);
    await recordChanges(testApp, aChange('acme', 'IMP-16'));
    await deliverer.drain();

    const [, after] = receiver.received;
    expect(after!.signature.split(' ')).toHaveLength(1);
    expect([verifiedWith(newSecret, after!, clock), verifiedWith(created.secret, after!, clock)]).toEqual([
      true,
      false,
    ]);
  });

  it('signs with every secret replaced within 24 h: three signatures after two rotations', async () => {
    const created = await subscribe({});
    const rotate = async () =>
      (
        (
          await testApp.http
            .post(`/api/webhooks/${created.id}/secret`)
            .set('Authorization', `Bearer ${token}`)
            .expect(200)
        ).body as { secret: string }
      ).secret;
    const second = await rotate();
    clock.advance(3600_000);
    const third = await rotate();
    /** Which of the three secrets Standard Webhooks' library accepts the next delivery with, as it arrives. */
    const nextVerdicts = async (numero: string) => {
      await recordChanges(testApp, aChange('acme', numero));
      await deliverer.drain();
      const delivery = receiver.received.at(-1)!;
      return [created.secret, second, third].map((secret) => verifiedWith(secret, delivery, clock));
    };

    const verdicts = [await nextVerdicts('IMP-15')];
    // The first replaced secret's 24 h end first, then the second's, an hour later.
    clock.advance(23 * 3600_000 + 1000);
    verdicts.push(await nextVerdicts('IMP-16'));
    clock.advance(3600_000);
    verdicts.push(await nextVerdicts('IMP-17'));

    expect(receiver.received.map((delivery) => delivery.signature.split(' ').length)).toEqual([3, 2, 1]);
    expect(verdicts).toEqual([
      [true, true, true],
      [false, true, true],
      [false, false, true],
    ]);
  });

  describe('tools: the test message, resending one attempt, the log by outcome', () => {
    const post = (path: string) =>
      testApp.http.post(path).set('Authorization', `Bearer ${token}`).expect(202);
    const deliveriesBy = async (id: string, outcome: string): Promise<Delivery[]> =>
      (
        (
          await testApp.http
            .get(`/api/webhooks/${id}/deliveries?outcome=${outcome}`)
            .set('Authorization', `Bearer ${token}`)
            .expect(200)
        ).body as { data: Delivery[] }
      ).data;

    it('sends the test message at once and once, signed, beside a queue held by a failing change', async () => {
      const created = await subscribe({});
      receiver.answer = (delivery) => ({ status: delivery.payload.type === 'webhook.test' ? 204 : 500 });
      await recordChanges(testApp, aChange('acme', 'IMP-20', 'STATUS_CHANGED'));
      await deliverer.drain();
      const before = await webhook(created.id);

      const { body } = await post(`/api/webhooks/${created.id}/test`);
      const { messageId } = body as { messageId: string };
      await receiver.waitForRequests(2, AbortSignal.timeout(10_000));
      await waitUntil(async () => (await deliveries(created.id)).length === 2);
      await deliverer.drain();

      const test = receiver.received[1]!;
      expect(test.id).toBe(messageId);
      expect(JSON.parse(test.body)).toEqual({
        type: 'webhook.test',
        timestamp: expect.any(String),
        data: {},
      });
      expect(verifiedWith(created.secret, test, clock)).toBe(true);
      expect(receiver.received.map((delivery) => delivery.payload.type)).toEqual([
        'process.status_changed',
        'webhook.test',
      ]);
      // The queue is where it was: the failing change waits for its retry, the position has not moved.
      expect(await webhook(created.id)).toMatchObject({ position: before.position, failedAttempts: 1 });
      expect((await deliveries(created.id))[0]).toMatchObject({
        messageId,
        kind: 'WEBHOOK_TEST',
        attempt: 1,
        responseStatus: 204,
        error: null,
        nextAttemptAt: null,
      });
    });

    it('resends one attempt’s message with its webhook-id, once, and narrows the log by outcome', async () => {
      const created = await subscribe({});
      let failFirst = true;
      receiver.answer = () => {
        const status = failFirst ? 503 : 200;
        failFirst = false;
        return { status };
      };
      await recordChanges(testApp, aChange('acme', 'IMP-21'));
      await deliverer.drain();
      clock.advance(pastDelay(5000));
      await deliverer.drain();
      const [succeeded, failed] = await deliveries(created.id);

      await post(`/api/webhooks/${created.id}/deliveries/${failed!.id}/resend`);
      await receiver.waitForRequests(3, AbortSignal.timeout(10_000));
      await waitUntil(async () => (await deliveries(created.id)).length === 3);

      const [first, , again] = receiver.received;
      expect(again!.id).toBe(first!.id);
      expect(again!.body).toBe(first!.body);
      expect(verifiedWith(created.secret, again!, clock)).toBe(true);
      expect((await deliveriesBy(created.id, 'failed')).map((delivery) => delivery.id)).toEqual([failed!.id]);
      expect((await deliveriesBy(created.id, 'succeeded')).map((delivery) => delivery.messageId)).toEqual([
        first!.id,
        succeeded!.messageId,
      ]);
    });

    it('answers a delivery of another webhook, or none, as 404, and refuses an unknown outcome', async () => {
      const created = await subscribe({});
      const other = await subscribe({});
      await recordChanges(testApp, aChange('acme', 'IMP-22'));
      await deliverer.drain();
      const [delivery] = await deliveries(created.id);

      for (const path of [
        `/api/webhooks/${other.id}/deliveries/${delivery!.id}/resend`,
        `/api/webhooks/${created.id}/deliveries/999999/resend`,
        `/api/webhooks/${created.id}/deliveries/abc/resend`,
      ]) {
        await testApp.http.post(path).set('Authorization', `Bearer ${token}`).expect(404);
      }
      const refused = await testApp.http
        .get(`/api/webhooks/${created.id}/deliveries?outcome=maybe`)
        .set('Authorization', `Bearer ${token}`)
        .expect(400);
      expect(refused.body).toMatchObject({ errors: [{ in: 'query', name: 'outcome' }] });
    });
  });

  it('holds back only the failing subscription: a dead and a hanging receiver beside a healthy one', async () => {
    const dead = await subscribe({ url: `http://127.0.0.1:${await closedPort()}/hooks` });
    const hangingReceiver = await WebhookReceiver.start();
    hangingReceiver.answer = () => 'hang';
    try {
      await subscribe({ url: hangingReceiver.url });
      await subscribe({});
      await recordChanges(testApp, aChange('acme', 'IMP-17'), aChange('acme', 'IMP-18'));
      await recordChanges(testApp, aChange('acme', 'IMP-19'));

      // The hanging receiver's attempt stays in flight meanwhile (up to the 15 s timeout).
      deliverer.wake();
      await waitUntil(() => Promise.resolve(receiver.acceptedNumeros.length === 3), 10_000);
      // The healthy receiver may be done before the hanging one's first request has arrived.
      await hangingReceiver.waitForRequests(1, AbortSignal.timeout(10_000));

      expect(receiver.acceptedNumeros).toEqual(['IMP-17', 'IMP-18', 'IMP-19']);
      expect(hangingReceiver.received.map((d) => d.payload.data.numero)).toEqual(['IMP-17']);
      await waitUntil(async () => (await deliveries(dead.id)).length === 1);
      expect((await deliveries(dead.id))[0]).toMatchObject({
        responseStatus: null,
        error: 'connection refused',
      });
    } finally {
      hangingReceiver.dropHanging();
      await hangingReceiver.close();
    }
  });

  it('forgets attempts older than the feed’s retention', async () => {
    const created = await subscribe({});
    await recordChanges(testApp, aChange('acme', 'IMP-21'));
    await deliverer.drain();
    expect(await deliveries(created.id)).toHaveLength(1);

    clock.advance(testApp.config.changes.retentionDays * 86_400_000 + 60_000);
    await testApp.app.get(DeliveriesRetention).prune();

    expect(await deliveries(created.id)).toEqual([]);
  });

  it('counts attempts and subscriptions in /metrics', async () => {
    await subscribe({});
    await recordChanges(testApp, aChange('acme', 'IMP-20', 'STATUS_CHANGED'));
    await deliverer.drain();

    const { text } = await testApp.http.get('/metrics').expect(200);

    expect(text).toMatch(/^webhook_deliveries_total\{outcome="success"\} [1-9]\d*$/m);
    expect(text).toMatch(/^webhook_subscriptions\{status="ACTIVE"\} 1$/m);
    expect(text).toMatch(/^webhook_delivery_lag_seconds_count [1-9]\d*$/m);
  });
});
