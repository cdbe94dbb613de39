import { jest } from '@jest/globals';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { OperationsGateway } from '../src/operations/operations.gateway.js';
import { FakeOperationsGateway } from '../src/testing/fake-operations.gateway.js';
import {
  anEvent,
  anOperationsDetail,
  anOperationsProcess,
} from '../src/testing/operations-process.factory.js';
import { BROWSER_TEST_TIMEOUT_MS, launchChromium } from './support/chromium.js';
import { PORTAL_SCREENSHOTS, preparePortalSuite } from './support/portal-suite.js';
import { syncNow } from './support/sync-now.js';
import { TestApp } from './support/test-app.js';
import { waitUntil } from './support/wait-until.js';
import { verifiedNow, WebhookReceiver } from './webhooks/support/webhook-receiver.js';

const NUMERO = 'IMP-2026-000001';

jest.setTimeout(BROWSER_TEST_TIMEOUT_MS);

describe('the reference portal’s Webhooks view in Chromium', () => {
  const gateway = new FakeOperationsGateway();
  let browser: Browser | null;
  let testApp: TestApp;
  let receiver: WebhookReceiver;
  let apiOrigin: string;
  let token: string;

  beforeAll(async () => {
    browser = await launchChromium('portal webhooks browser suite');
    if (browser === null) return;
    preparePortalSuite();
    const followed = anOperationsProcess({ numero: NUMERO, status: 'IN_TRANSIT', customsChannel: null });
    gateway.put(followed, anOperationsDetail(followed));
    testApp = await TestApp.start({
      // As in demo mode: a receiver on this machine, over plain HTTP.
      env: { PORTAL_ENABLED: 'true', WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' },
      override: (builder) => builder.overrideProvider(OperationsGateway).useValue(gateway),
    });
    await syncNow(testApp);
    await testApp.addUser({ username: 'acme', password: 'acme-pass-1', customerIds: ['acme'] });
    await testApp.app.listen(0, '127.0.0.1');
    apiOrigin = `http://127.0.0.1:${(testApp.app.getHttpServer().address() as AddressInfo).port}`;
    token = await testApp.login('acme', 'acme-pass-1');
    receiver = await WebhookReceiver.start();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await receiver?.close();
    await testApp?.close();
  });

  async function openWebhooks(page: Page): Promise<void> {
    await page.goto(`${apiOrigin}/portal/`);
    await page.getByLabel('User name').fill('acme');
    await page.getByLabel('Password').fill('acme-pass-1');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('button', { name: 'Webhooks' }).click();
    await page.getByText('No webhooks yet.').waitFor();
  }

  const webhooksOfAcme = async () =>
    (
      (await testApp.http.get('/api/webhooks').set('Authorization', `Bearer ${token}`).expect(200)).body as {
        data: Array<{ id: string; status: string }>;
      }
    ).data;

  /** The attempts the API lists for the webhook (a delivery is logged just after the receiver answers). */
  const attemptsOf = async (id: string) =>
    (
      (
        await testApp.http
          .get(`/api/webhooks/${id}/deliveries`)
          .set('Authorization', `Bearer ${token}`)
          .expect(200)
      ).body as { data: unknown[] }
    ).data.length;

  it('creates a webhook showing its secret once, lists its signed deliveries, replays, pauses and deletes it', async () => {
    if (browser === null) return;
    const page = await browser.newPage({
      viewport: { width: 1280, height: 900 },
      permissions: ['clipboard-read', 'clipboard-write'],
    });
    const consoleErrors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error' && !message.location().url.endsWith('/api/changes/stream'))
        consoleErrors.push(message.text());
    });
    page.on('pageerror', (error) => consoleErrors.push(error.message));
    await openWebhooks(page);

    // The API's own words for a URL it refuses.
    await page.getByLabel('Receiver URL').fill('ftp://erp.example.com/hooks');
    await page.getByRole('button', { name: 'Create webhook' }).click();
    await expect(page.getByRole('alert').textContent()).resolves.toContain('url:');
    consoleErrors.length = 0;

    await page.getByLabel('Receiver URL').fill(receiver.url);
    await page.getByLabel('Description').fill('ERP import');
    await page.getByLabel('status changed').check();
    await page.getByLabel('follow-up added').check();
    await page.getByRole('button', { name: 'Create webhook' }).click();

    const secretField = page.getByLabel(/^Secret of /);
    await secretField.waitFor();
    const secret = await secretField.inputValue();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    // The refusal's alert is gone by the time the secret shows.
    await expect(page.getByRole('alert').allTextContents()).resolves.toEqual([]);
    await page.getByRole('button', { name: 'Copy' }).click();
    await expect(page.evaluate<string>('navigator.clipboard.readText()')).resolves.toBe(secret);
    const item = page.locator('#webhook-list > li');
    await expect(item.getByRole('heading').textContent()).resolves.toBe(receiver.url);
    await expect(item.locator('.status').textContent()).resolves.toBe('active');
    await expect(item.textContent()).resolves.toContain('Kinds: status changed, follow-up added');
    await page.screenshot({ path: `${PORTAL_SCREENSHOTS}/webhook-created.png`, fullPage: true });
    // Shown once: gone from the page when dismissed, and never in what the list shows.
    await page.getByRole('button', { name: 'Done' }).click();
    await expect(secretField.isVisible()).resolves.toBe(false);
    expect(await page.content()).not.toContain(secret);
    await page.reload();
    await page.getByLabel('User name').fill('acme');
    await page.getByLabel('Password').fill('acme-pass-1');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('button', { name: 'Webhooks' }).click();
    await item.waitFor();
    expect(await page.content()).not.toContain(secret);

    // A sync brings a status change, a follow-up event and a customs change: the first two are
    // delivered, signed, in feed order; the customs change is not a kind the webhook asked for.
    const [followed] = gateway.all();
    gateway.put({
      ...followed!,
      status: 'ARRIVED',
      customsChannel: 'GREEN',
      updatedAt: '2026-04-01T09:00:00Z',
      events: [
        ...followed!.events,
        anEvent({ id: `${NUMERO}-arrived`, code: 'ARRIVED', occurredAt: '2026-04-01T08:00:00Z' }),
      ],
    });
    await syncNow(testApp);
    await waitUntil(() => Promise.resolve(receiver.acceptedNumeros.length === 2), 15_000);
    expect(receiver.received.map((delivery) => delivery.payload.type)).toEqual([
      'process.status_changed',
      'process.follow_added',
    ]);
    for (const delivery of receiver.received) expect(verifiedNow(secret, delivery)).toBe(true);
    const [first, second] = receiver.received;
    const [{ id }] = (await webhooksOfAcme()) as [{ id: string; status: string }];
    await waitUntil(async () => (await attemptsOf(id)) === 2, 5000);

    await item.getByRole('button', { name: 'Deliveries' }).click();
    const rows = page.locator('#deliveries-rows > tr');
    await rows.nth(1).waitFor();
    // Newest first: the follow-up, then the status change, each answered 200.
    await expect(rows.locator('td:nth-child(3)').allTextContents()).resolves.toEqual([second!.id, first!.id]);
    await expect(rows.locator('td:nth-child(5)').allTextContents()).resolves.toEqual(['200', '200']);
    await page.screenshot({ path: `${PORTAL_SCREENSHOTS}/webhook-deliveries.png`, fullPage: true });

    // Replay after the first change's cursor: the second comes again, with the same webhook-id.
    await page.getByLabel('Its cursor (a webhook-id above)').fill(first!.id);
    await page.getByRole('button', { name: 'Replay' }).click();
    await waitUntil(() => Promise.resolve(receiver.acceptedNumeros.length === 3), 15_000);
    expect(receiver.received[2]?.id).toBe(second!.id);
    // Replay from an instant (to the minute: what came before it in that minute is of other kinds): both again.
    const recordedAt = new Date(first!.payload.timestamp);
    await page.getByLabel('From an instant').check();
    await page
      .getByLabel('Recorded at or after (UTC)')
      .fill(recordedAt.toISOString().slice(0, 'YYYY-MM-DDTHH:MM'.length));
    await page.getByRole('button', { name: 'Replay' }).click();
    await waitUntil(() => Promise.resolve(receiver.acceptedNumeros.length === 5), 15_000);
    expect(receiver.received.slice(3).map((delivery) => delivery.id)).toEqual([first!.id, second!.id]);
    for (const delivery of receiver.received) expect(verifiedNow(secret, delivery)).toBe(true);
    await waitUntil(async () => (await attemptsOf(id)) === 5, 5000);
    await page.getByRole('button', { name: 'Refresh' }).click();
    await rows.nth(4).waitFor();

    // Pause by keyboard: the focus stays on the button, now Resume.
    await item.getByRole('button', { name: 'Pause' }).focus();
    await page.keyboard.press('Enter');
    await item.getByRole('button', { name: 'Resume' }).waitFor();
    await expect(item.locator('.status').textContent()).resolves.toBe('paused');
    await expect(page.evaluate<string | undefined>('document.activeElement?.textContent')).resolves.toBe(
      'Resume',
    );
    await expect(webhooksOfAcme()).resolves.toEqual([expect.objectContaining({ id, status: 'PAUSED' })]);

    page.once('dialog', (dialog) => void dialog.accept());
    await item.getByRole('button', { name: 'Delete' }).click();
    await page.getByText('No webhooks yet.').waitFor();
    await expect(page.locator('#webhook-deliveries').isVisible()).resolves.toBe(false);
    await expect(webhooksOfAcme()).resolves.toEqual([]);
    expect(consoleErrors).toEqual([]);
    await page.close();
  });

  it('sends a test message, narrows the attempts to failed or succeeded ones, and resends one', async () => {
    if (browser === null) return;
    const tested = await WebhookReceiver.start();
    // The first request fails, the resend succeeds.
    tested.answer = () => ({ status: tested.received.length === 1 ? 500 : 204 });
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    try {
      await testApp.http
        .post('/api/webhooks')
        .set('Authorization', `Bearer ${token}`)
        .send({ url: tested.url })
        .expect(201);
      await page.goto(`${apiOrigin}/portal/`);
      await page.getByLabel('User name').fill('acme');
      await page.getByLabel('Password').fill('acme-pass-1');
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('button', { name: 'Webhooks' }).click();
      const item = page.locator('#webhook-list > li');

      await item.getByRole('button', { name: 'Send test' }).click();
      await tested.waitForRequests(1, AbortSignal.timeout(10_000));
      expect(tested.received[0]?.payload.type).toBe('webhook.test');
      const [{ id }] = (await webhooksOfAcme()) as [{ id: string; status: string }];
      await waitUntil(async () => (await attemptsOf(id)) === 1, 5000);

      await item.getByRole('button', { name: 'Deliveries' }).click();
      const rows = page.locator('#deliveries-rows > tr');
      await rows.first().waitFor();
      await expect(rows.locator('td:nth-child(2)').allTextContents()).resolves.toEqual(['test message']);
      await page.getByLabel('Attempts shown').selectOption('succeeded');
      await page.getByText('No attempt yet').waitFor();
      await page.getByLabel('Attempts shown').selectOption('failed');
      await rows.first().waitFor();
      await rows.first().getByRole('button', { name: 'Resend' }).click();
      await tested.waitForRequests(2, AbortSignal.timeout(10_000));
      expect(tested.received[1]?.id).toBe(tested.received[0]?.id);
      await waitUntil(async () => (await attemptsOf(id)) === 2, 5000);
      await page.getByLabel('Attempts shown').selectOption('succeeded');
      await rows.locator('td:nth-child(5)', { hasText: '204' }).waitFor();
      await expect(rows.locator('td:nth-child(5)').allTextContents()).resolves.toEqual(['204']);
      await page.screenshot({ path: `${PORTAL_SCREENSHOTS}/webhook-tools.png`, fullPage: true });
    } finally {
      await page.close();
      await tested.close();
    }
  });
});
