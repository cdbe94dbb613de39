import { TEST_DATABASE_TARGETS } from '../../src/testing/test-database.js';
import { TestApp } from '../support/test-app.js';
import { aChange, recordChanges } from './support/record-changes.js';
import { WebhookReceiver } from './support/webhook-receiver.js';

const DEAD_USERS = 10;
/** Every dead user's allowance: 100 never-answering receivers in all. */
const WEBHOOKS_EACH = 10;
const DEAD_RECEIVERS = DEAD_USERS * WEBHOOKS_EACH;
/**
 * Shorter than an attempt's 15 s limit: what arrives by then did not wait for a hanging attempt to
 * end. Generous below it: on a loaded machine the 100 attempts take seconds to start.
 */
const SOONER_THAN_AN_ATTEMPT_ENDS_MS = 14_000;

const onPostgres = TEST_DATABASE_TARGETS.includes('postgres') ? describe : describe.skip;

/**
 * The deliverer as it runs (woken by the feed's notifications, no drain) on PostgreSQL, with more
 * receivers that never answer than an instance ever worked at once before.
 */
onPostgres('webhook delivery beside 100 receivers that never answer (postgres)', () => {
  let testApp: TestApp;
  let dead: WebhookReceiver;
  let healthy: WebhookReceiver;
  let healthyToken: string;

  const subscribe = (token: string, url: string) =>
    testApp.http.post('/api/webhooks').set('Authorization', `Bearer ${token}`).send({ url }).expect(201);

  beforeAll(async () => {
    testApp = await TestApp.start({
      target: 'postgres',
      env: { WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' },
    });
    dead = await WebhookReceiver.start();
    dead.answer = () => 'hang';
    healthy = await WebhookReceiver.start();
    await testApp.addCustomers({ id: 'dead', name: 'Dead receivers' }, { id: 'acme', name: 'ACME' });
    for (let user = 0; user < DEAD_USERS; user++) {
      await testApp.addUser({ username: `dead-${user}`, password: 'dead-pass-1', customerIds: ['dead'] });
      const token = await testApp.login(`dead-${user}`, 'dead-pass-1');
      for (let webhook = 0; webhook < WEBHOOKS_EACH; webhook++) await subscribe(token, dead.url);
    }
    await testApp.addUser({ username: 'acme', password: 'acme-pass-1', customerIds: ['acme'] });
    healthyToken = await testApp.login('acme', 'acme-pass-1');
    await subscribe(healthyToken, healthy.url);
  }, 60_000);

  afterAll(async () => {
    dead.dropHanging();
    await testApp.close();
    await dead.close();
    await healthy.close();
  });

  it('delivers a healthy subscription’s changes while every dead receiver holds an attempt open', async () => {
    await recordChanges(testApp, aChange('dead', 'DEAD-1'));
    // Every dead subscription's attempt is under way at once: none waits for a slot.
    await dead.waitForRequests(DEAD_RECEIVERS, AbortSignal.timeout(SOONER_THAN_AN_ATTEMPT_ENDS_MS));

    await recordChanges(
      testApp,
      aChange('acme', 'IMP-1'),
      aChange('acme', 'IMP-2'),
      aChange('acme', 'IMP-3'),
    );
    await healthy.waitForRequests(3, AbortSignal.timeout(SOONER_THAN_AN_ATTEMPT_ENDS_MS));

    expect(healthy.acceptedNumeros).toEqual(['IMP-1', 'IMP-2', 'IMP-3']);
    // Not one dead attempt had ended (they never answer; the 15 s limit had not come).
    expect(dead.received).toHaveLength(DEAD_RECEIVERS);
  });
});
