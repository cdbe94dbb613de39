import { and, count, gt, isNull } from 'drizzle-orm';
import { Clock } from '../../src/common/clock.js';
import { RequestActivity } from '../../src/common/http/request-activity.js';
import { webhookSubscriptions } from '../../src/database/schema.js';
import { FakeClock } from '../../src/testing/fake-clock.js';
import { TEST_DATABASE_TARGETS } from '../../src/testing/test-database.js';
import { RETRY_DELAYS_MS } from '../../src/webhooks/delivery/retry-schedule.js';
import { TestApp } from '../support/test-app.js';
import { aChange, recordChanges } from './support/record-changes.js';
import { WebhookReceiver } from './support/webhook-receiver.js';

const DEAD_USERS = 10;
/** Every dead user's allowance: 100 never-answering receivers in all. */
const WEBHOOKS_EACH = 10;
const DEAD_RECEIVERS = DEAD_USERS * WEBHOOKS_EACH;
/** The healthy subscription's changes recorded at once, in each phase. */
const HEALTHY_CHANGES = 20;
/** From a change's commit to the start of its delivery (its arrival at the receiver). */
const STARTS_WITHIN_MS = 1000;
/** A drain beside the dead receivers takes at most this share of the same drain with none. */
const DRAIN_MARGIN = 1.2;
/** Longer than any drain here may take (so long only when it fails). */
const DRAIN_LIMIT_MS = 30_000;

const onPostgres = TEST_DATABASE_TARGETS.includes('postgres') ? describe : describe.skip;

/** An API that looks busy throughout (requests arriving, its loop loaded): every delivery is paced. */
class BusyApi extends RequestActivity {
  override servingRequests(): boolean {
    return true;
  }

  override loopShare(): number {
    return 1;
  }
}

/**
 * The deliverer as it runs (woken by the feed's notifications, no drain) on PostgreSQL, while the
 * API looks busy, with more receivers that never answer than an instance ever worked at once before.
 */
onPostgres('webhook delivery beside 100 receivers that never answer (postgres)', () => {
  let testApp: TestApp;
  let clock: FakeClock;
  let dead: WebhookReceiver;
  let healthy: WebhookReceiver;
  let numero = 0;

  const subscribe = (token: string, url: string) =>
    testApp.http.post('/api/webhooks').set('Authorization', `Bearer ${token}`).send({ url }).expect(201);

  /**
   * Records `HEALTHY_CHANGES` changes for the healthy subscription in one transaction: how long
   * from before the commit until the first arrived at its receiver, and until the last did.
   */
  async function healthyDrain(): Promise<{ startedInMs: number; drainedInMs: number }> {
    const before = healthy.received.length;
    const drafts = Array.from({ length: HEALTHY_CHANGES }, () => aChange('acme', `IMP-${++numero}`));
    const recordedAt = performance.now();
    await recordChanges(testApp, ...drafts);
    await healthy.waitForRequests(before + 1, AbortSignal.timeout(DRAIN_LIMIT_MS));
    const startedInMs = performance.now() - recordedAt;
    await healthy.waitForRequests(before + HEALTHY_CHANGES, AbortSignal.timeout(DRAIN_LIMIT_MS));
    const drainedInMs = performance.now() - recordedAt;
    expect(healthy.acceptedNumeros.slice(before)).toEqual(drafts.map((draft) => draft.numero));
    return { startedInMs, drainedInMs };
  }

  /** The subscriptions whose last attempt failed and whose lease is given back: done with for now. */
  async function failedAndReleased(): Promise<number> {
    const [row] = await testApp.database.db
      .select({ done: count() })
      .from(webhookSubscriptions)
      .where(and(gt(webhookSubscriptions.failedAttempts, 0), isNull(webhookSubscriptions.leaseOwner)));
    return row?.done ?? 0;
  }

  beforeAll(async () => {
    clock = new FakeClock(new Date());
    testApp = await TestApp.start({
      target: 'postgres',
      env: { WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' },
      override: (builder) =>
        builder
          .overrideProvider(RequestActivity)
          .useValue(new BusyApi())
          .overrideProvider(Clock)
          .useValue(clock),
    });
    dead = await WebhookReceiver.start();
    dead.answer = () => 'hang';
    healthy = await WebhookReceiver.start();
    await testApp.addCustomers({ id: 'dead', name: 'Dead receivers' }, { id: 'acme', name: 'ACME' });
    await testApp.addUser({ username: 'acme', password: 'acme-pass-1', customerIds: ['acme'] });
    await subscribe(await testApp.login('acme', 'acme-pass-1'), healthy.url);
  }, 60_000);

  afterAll(async () => {
    dead.dropHanging();
    await testApp.close();
    await dead.close();
    await healthy.close();
  });

  it('paces a healthy subscription’s deliveries apart from those of receivers that never answer: its next starts within 1 s, its drain as without them', async () => {
    // A first drain warms the way up (connections, prepared statements); the quiet one is the second.
    await healthyDrain();
    // Quiet: no other subscription yet.
    const quiet = await healthyDrain();
    expect(quiet.startedInMs).toBeLessThan(STARTS_WITHIN_MS);
    for (let user = 0; user < DEAD_USERS; user++) {
      await testApp.addUser({ username: `dead-${user}`, password: 'dead-pass-1', customerIds: ['dead'] });
      const token = await testApp.login(`dead-${user}`, 'dead-pass-1');
      for (let webhook = 0; webhook < WEBHOOKS_EACH; webhook++) await subscribe(token, dead.url);
    }

    // The dead receivers' first attempts start (a turn each) as the healthy changes are recorded.
    await recordChanges(testApp, aChange('dead', 'DEAD-1'));
    const besideFirstAttempts = await healthyDrain();
    // Every dead subscription's attempt ends up under way at once: none waits for a slot.
    await dead.waitForRequests(DEAD_RECEIVERS, AbortSignal.timeout(DRAIN_LIMIT_MS));

    // They fail together (their connections dropped), and are retried together with the healthy changes.
    dead.dropHanging();
    for (const deadline = performance.now() + DRAIN_LIMIT_MS; (await failedAndReleased()) < DEAD_RECEIVERS;) {
      if (performance.now() > deadline) throw new Error('the dead receivers’ failures were not all recorded');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    clock.advance(RETRY_DELAYS_MS[0] * 1.2);
    const besideRetries = await healthyDrain();
    await dead.waitForRequests(2 * DEAD_RECEIVERS, AbortSignal.timeout(DRAIN_LIMIT_MS));

    process.stdout.write(
      `healthy drain of ${HEALTHY_CHANGES} (first started in, all in): quiet ${Math.round(quiet.startedInMs)}, ${Math.round(quiet.drainedInMs)} ms; ` +
        `beside ${DEAD_RECEIVERS} first attempts ${Math.round(besideFirstAttempts.startedInMs)}, ${Math.round(besideFirstAttempts.drainedInMs)} ms; ` +
        `beside their retries ${Math.round(besideRetries.startedInMs)}, ${Math.round(besideRetries.drainedInMs)} ms\n`,
    );
    for (const beside of [besideFirstAttempts, besideRetries]) {
      expect(beside.startedInMs).toBeLessThan(STARTS_WITHIN_MS);
      expect(beside.drainedInMs).toBeLessThan(quiet.drainedInMs * DRAIN_MARGIN);
    }
  }, 120_000);
});
