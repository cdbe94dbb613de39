import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { rowsOf } from '../../src/database/sql-rows.js';
import { closedPort } from '../../src/testing/closed-port.js';
import { DeliveryRunner } from '../../src/webhooks/delivery/delivery-runner.js';
import { TestApp } from '../support/test-app.js';
import { waitUntil } from '../support/wait-until.js';
import { aChange, recordChanges } from './support/record-changes.js';
import { verifiedNow, WebhookReceiver } from './support/webhook-receiver.js';
import { statusOf } from '../../src/testing/status-of.js';

const SUITE = 'Webhook delivery across a SIGKILL of the built service';
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** The handover the service promises after an instance dies: within 30 s of its lease expiring. */
const HANDOVER_MS = 30_000;

const canRun = process.env.TEST_DATABASE_URL !== undefined;
if (!canRun)
  console.error(`${SUITE}: SKIPPED, needs TEST_DATABASE_URL (the instances share a PostgreSQL database)`);

/** `node dist/main.js` on the database, allowed to deliver to a receiver on this machine. */
async function startService(databaseUrl: string): Promise<{ child: ChildProcess; url: string }> {
  const port = await closedPort();
  const child = spawn(process.execPath, ['dist/main.js'], {
    cwd: ROOT,
    // Only what this test decides: no REDIS_URL or other settings from the surrounding environment.
    env: {
      PATH: process.env.PATH,
      NODE_ENV: 'production',
      PORT: String(port),
      DATABASE_URL: databaseUrl,
      // Both instances sign with the secrets they decrypt with a key derived from this.
      JWT_SECRET: 'webhook-crash-test-secret-that-is-long-enough-0123456789',
      OPERATIONS_BASE_URL: 'http://127.0.0.1:9',
      SYNC_INTERVAL_S: '0',
      LOG_LEVEL: 'warn',
      WEBHOOK_ALLOW_HTTP: 'true',
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  // Up when the API answers (401: no token), which is after migrations and the deliverer's start.
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the service exited with ${child.exitCode}`);
    const status = await statusOf(`${url}/api/processes`).catch(() => null);
    if (status === 401) return { child, url };
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

(canRun ? describe : describe.skip)(SUITE, () => {
  /** The database's owner, and the tests' hand on it: it records changes as sync does, and delivers nothing. */
  let setup: TestApp;
  const services: ChildProcess[] = [];
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    // Builds dist/ only when it is missing or older than the sources (as `npm start` does).
    execFileSync(process.execPath, ['scripts/build-if-stale.mjs'], {
      cwd: ROOT,
      stdio: 'pipe',
      timeout: 180_000,
    });
    setup = await TestApp.start({
      target: 'postgres',
      override: (builder) => builder.overrideProvider(DeliveryRunner).useValue({}),
    });
    await setup.addCustomers({ id: 'acme', name: 'ACME' });
    await setup.addUser({ username: 'acme', password: 'acme-pass-1', customerIds: ['acme'] });
    receiver = await WebhookReceiver.start();
  }, 240_000);

  afterAll(async () => {
    for (const service of services) {
      if (service.exitCode !== null || service.signalCode !== null) continue;
      service.kill();
      await once(service, 'exit');
    }
    await receiver?.close();
    await setup?.close();
  });

  it('SIGKILL mid-delivery: the other instance sends the in-flight change again, same webhook-id, then the rest in order', async () => {
    const databaseUrl = setup.config.database.url!;
    // The first instance alone, so that the lease is its own. It starts before any webhook exists,
    // so its delivery thread starts only once the first one does.
    const first = await startService(databaseUrl);
    services.push(first.child);
    const login = await fetch(`${first.url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'acme', password: 'acme-pass-1' }),
    });
    const { accessToken } = (await login.json()) as { accessToken: string };
    const created = await fetch(`${first.url}/api/webhooks`, {
      method: 'POST',
      headers: { authorization: `Bearer ${accessToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ url: receiver.url }),
    });
    expect(created.status).toBe(201);
    const { id, secret } = (await created.json()) as { id: string; secret: string };

    // The receiver holds the first delivery open, and takes every later one.
    receiver.answer = (delivery) => (receiver.received.indexOf(delivery) === 0 ? 'hang' : { status: 200 });
    await recordChanges(setup, aChange('acme', 'IMP-1'), aChange('acme', 'IMP-2'), aChange('acme', 'IMP-3'));
    await receiver.waitForRequests(1, AbortSignal.timeout(15_000));
    const [inFlight] = receiver.received;
    expect(inFlight?.payload.data.numero).toBe('IMP-1');

    // The second instance, up while the first holds the lease mid-delivery; then the first is killed.
    const second = await startService(databaseUrl);
    services.push(second.child);
    first.child.kill('SIGKILL');
    await once(first.child, 'exit');
    expect(first.child.signalCode).toBe('SIGKILL');
    const [lease] = await rowsOf<{ lease_expires_at: Date | string }>(
      setup.database.db,
      sql`SELECT lease_expires_at FROM webhook_subscriptions WHERE id = ${id}`,
    );
    const leaseExpiresInMs = Math.max(0, new Date(lease!.lease_expires_at).getTime() - Date.now());
    await recordChanges(setup, aChange('acme', 'IMP-4'), aChange('acme', 'IMP-5'));

    // Handed over within 30 s of the dead instance's lease expiring: the wait fails otherwise.
    await receiver.waitForRequests(2, AbortSignal.timeout(leaseExpiresInMs + HANDOVER_MS));
    expect(receiver.received[1]?.id).toBe(inFlight?.id);
    await receiver.waitForRequests(6, AbortSignal.timeout(HANDOVER_MS));

    expect(receiver.acceptedNumeros).toEqual(['IMP-1', 'IMP-2', 'IMP-3', 'IMP-4', 'IMP-5']);
    expect(receiver.received).toHaveLength(6);
    for (const delivery of receiver.received) expect(verifiedNow(secret, delivery)).toBe(true);
    // The killed instance logged nothing of its attempt; the survivor logged each change once, a success.
    const log = await rowsOf<{ message_id: string; attempt: number; response_status: number | null }>(
      setup.database.db,
      sql`SELECT message_id, attempt, response_status FROM webhook_deliveries
           WHERE subscription_id = ${id} ORDER BY id`,
    );
    expect(log).toEqual(
      receiver.received
        .slice(1)
        .map((delivery) => ({ message_id: delivery.id, attempt: 1, response_status: 200 })),
    );

    // The survivor delivered on a thread of its own (the default with a PostgreSQL server): its
    // attempts reach the service's /metrics, and the thread ends with the service on SIGTERM.
    await waitUntil(async () => {
      const metrics = await (await fetch(`${second.url}/metrics`)).text();
      return /^webhook_deliveries_total\{outcome="success"\} 5$/m.test(metrics);
    });
    second.child.kill('SIGTERM');
    const [exitCode] = (await once(second.child, 'exit')) as [number | null];
    expect(exitCode).toBe(0);
  }, 180_000);
});
