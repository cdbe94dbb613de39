import { sql } from 'drizzle-orm';
import pg from 'pg';
import { Clock } from '../../src/common/clock.js';
import { DatabaseService } from '../../src/database/database.service.js';
import { rowsOf } from '../../src/database/sql-rows.js';
import { LEASE_MS, WebhookDeliverer } from '../../src/webhooks/delivery/webhook-deliverer.js';
import { FakeClock } from '../../src/testing/fake-clock.js';
import { TestApp } from '../support/test-app.js';
import { waitUntil } from '../support/wait-until.js';
import { aChange, recordChanges } from './support/record-changes.js';
import { verifiedWith, WebhookReceiver } from './support/webhook-receiver.js';

const SUITE = 'Webhook delivery by two instances on one PostgreSQL';

const canRun = process.env.TEST_DATABASE_URL !== undefined;
if (!canRun)
  console.error(`${SUITE}: SKIPPED, needs TEST_DATABASE_URL (instances share a PostgreSQL database)`);

(canRun ? describe : describe.skip)(SUITE, () => {
  const clock = new FakeClock(new Date());
  let instanceA: TestApp;
  let instanceB: TestApp;
  let receiver: WebhookReceiver;
  let token: string;

  const startInstance = (sharingDatabaseOf?: TestApp) =>
    TestApp.start({
      target: 'postgres',
      ...(sharingDatabaseOf !== undefined && { sharingDatabaseOf }),
      env: { WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' },
      override: (builder) => builder.overrideProvider(Clock).useValue(clock),
    });
  const deliverer = (instance: TestApp) => instance.app.get(WebhookDeliverer);

  beforeAll(async () => {
    instanceA = await startInstance();
    instanceB = await startInstance(instanceA);
    receiver = await WebhookReceiver.start();
    await instanceA.addCustomers({ id: 'acme', name: 'ACME' });
    await instanceA.addUser({ username: 'acme', password: 'acme-pass-1', customerIds: ['acme'] });
    token = await instanceA.login('acme', 'acme-pass-1');
  }, 60_000);

  afterAll(async () => {
    await receiver.close();
    // The instance killed below cannot close its database again: its own close fails, and the
    // throwaway database is dropped here, whichever instance created it.
    const url = instanceA.config.database.url!;
    await instanceB.close().catch(() => undefined);
    await instanceA.close().catch(() => undefined);
    const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${new URL(url).pathname.slice(1)} WITH (FORCE)`);
    await admin.end();
  });

  it('shares the subscriptions between the instances, each delivered by one at a time, in order and once', async () => {
    const receivers = await Promise.all(Array.from({ length: 6 }, () => WebhookReceiver.start()));
    try {
      for (const [index, each] of receivers.entries()) {
        await (index % 2 === 0 ? instanceA : instanceB).http
          .post('/api/webhooks')
          .set('Authorization', `Bearer ${token}`)
          .send({ url: each.url })
          .expect(201);
      }
      const numeros = Array.from({ length: 20 }, (_, index) => `IMP-S${index}`);
      for (let index = 0; index < numeros.length; index += 4) {
        await recordChanges(
          instanceA,
          ...numeros.slice(index, index + 4).map((numero) => aChange('acme', numero)),
        );
      }

      await Promise.all([deliverer(instanceA).drain(), deliverer(instanceB).drain()]);
      await waitUntil(() =>
        Promise.resolve(receivers.every((each) => each.received.length >= numeros.length)),
      );

      for (const each of receivers) expect(each.received.map((d) => d.payload.data.numero)).toEqual(numeros);
    } finally {
      for (const each of receivers) await each.close();
      const { body } = await instanceA.http.get('/api/webhooks').set('Authorization', `Bearer ${token}`);
      for (const { id } of (body as { data: Array<{ id: string }> }).data) {
        await instanceA.http
          .delete(`/api/webhooks/${id}`)
          .set('Authorization', `Bearer ${token}`)
          .expect(204);
      }
    }
  });

  it('hands a dead instance’s subscription on when its lease expires: every change delivered, in order, the in-flight one again with the same webhook-id', async () => {
    const { body } = await instanceA.http
      .post('/api/webhooks')
      .set('Authorization', `Bearer ${token}`)
      .send({ url: receiver.url })
      .expect(201);
    const { secret } = body as { id: string; secret: string };
    let first = true;
    receiver.answer = () => {
      if (!first) return { status: 200 };
      first = false;
      return 'hang';
    };

    await recordChanges(
      instanceA,
      aChange('acme', 'IMP-1'),
      aChange('acme', 'IMP-2'),
      aChange('acme', 'IMP-3'),
    );
    deliverer(instanceA).wake();
    deliverer(instanceB).wake();
    await waitUntil(() => Promise.resolve(receiver.received.length === 1), 10_000);
    const [inFlight] = receiver.received;

    // The instance holding the lease dies mid-delivery: its database sessions and its connection
    // to the receiver go, and it writes nothing more.
    const [lease] = await rowsOf<{ lease_owner: string }>(
      instanceA.database.db,
      sql`SELECT lease_owner FROM webhook_subscriptions`,
    );
    const [victim, survivor] =
      lease?.lease_owner === deliverer(instanceA).instanceId
        ? [instanceA, instanceB]
        : [instanceB, instanceA];
    expect(lease?.lease_owner).toBe(deliverer(victim).instanceId);
    await victim.app.get(DatabaseService).close();
    receiver.dropHanging();
    await recordChanges(survivor, aChange('acme', 'IMP-4'), aChange('acme', 'IMP-5'));

    // Not before its lease has expired...
    clock.advance(LEASE_MS - 1000);
    await deliverer(survivor).drain();
    expect(receiver.received).toHaveLength(1);

    // ...and then at once (well within 30 s of the crash).
    clock.advance(2000);
    await deliverer(survivor).drain();

    expect(receiver.acceptedNumeros).toEqual(['IMP-1', 'IMP-2', 'IMP-3', 'IMP-4', 'IMP-5']);
    expect(receiver.received[1]?.id).toBe(inFlight?.id);
    for (const delivery of receiver.received) expect(verifiedWith(secret, delivery, clock)).toBe(true);
    const log = await rowsOf<{ attempt: number; response_status: number | null }>(
      survivor.database.db,
      sql`SELECT attempt, response_status FROM webhook_deliveries
           WHERE subscription_id = ${(body as { id: string }).id} ORDER BY id`,
    );
    expect(log).toEqual(Array.from({ length: 5 }, () => ({ attempt: 1, response_status: 200 })));
  });
});
