import { jest } from '@jest/globals';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { seriousAccessibilityViolations } from './support/accessibility.js';
import { BROWSER_TEST_TIMEOUT_MS, launchChromium } from './support/chromium.js';
import { PORTAL_SCREENSHOTS, preparePortalSuite } from './support/portal-suite.js';
import { TestApp } from './support/test-app.js';
import { waitUntil } from './support/wait-until.js';

jest.setTimeout(BROWSER_TEST_TIMEOUT_MS);

describe('the reference portal’s Systems view in Chromium', () => {
  let browser: Browser | null;
  let testApp: TestApp;
  let apiOrigin: string;
  let token: string;

  beforeAll(async () => {
    browser = await launchChromium('portal systems browser suite');
    if (browser === null) return;
    preparePortalSuite();
    testApp = await TestApp.start({ env: { PORTAL_ENABLED: 'true' } });
    await testApp.addCustomers({ id: 'acme', name: 'ACME Importadora Ltda' });
    await testApp.addUser({ username: 'acme', password: 'acme-pass-1', customerIds: ['acme'] });
    await testApp.app.listen(0, '127.0.0.1');
    apiOrigin = `http://127.0.0.1:${(testApp.app.getHttpServer().address() as AddressInfo).port}`;
    token = await testApp.login('acme', 'acme-pass-1');
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await testApp?.close();
  });

  async function openSystems(page: Page): Promise<void> {
    await page.goto(`${apiOrigin}/portal/`);
    await page.getByLabel('User name').fill('acme');
    await page.getByLabel('Password').fill('acme-pass-1');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('button', { name: 'Systems' }).click();
  }

  const clientsOfAcme = async () =>
    (
      (await testApp.http.get('/api/clients').set('Authorization', `Bearer ${token}`).expect(200)).body as {
        data: Array<{ id: string; clientId: string; lastUsedAt: string | null }>;
      }
    ).data;
  const tokenStatus = async (clientId: string, clientSecret: string) =>
    (
      await testApp.http
        .post('/api/oauth/token')
        .type('form')
        .send({ grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret })
    ).status;

  it('registers a system showing its secret once, shows when it was last used, rotates its secret and deletes it', async () => {
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
    await openSystems(page);
    await page.getByText('No systems yet.').waitFor();

    // The API's own words for a system without a scope.
    await page.getByLabel('Name', { exact: true }).fill('SAP production');
    await page.getByRole('button', { name: 'Register system' }).click();
    await expect(page.getByRole('alert').textContent()).resolves.toContain('scopes:');
    consoleErrors.length = 0;

    await page.getByLabel('Name', { exact: true }).fill('SAP production');
    await page.getByLabel(/processes:read: /).check();
    await page.getByLabel(/changes:read: /).check();
    await page.getByRole('button', { name: 'Register system' }).click();
    const secretField = page.getByLabel('Client secret', { exact: true });
    await secretField.waitFor();
    const secret = await secretField.inputValue();
    const clientId = await page.getByLabel(/^Client id of /).inputValue();
    expect(secret).toMatch(/^pls_[A-Za-z0-9_-]{43}$/);
    expect(clientId).toMatch(/^plc_[A-Za-z0-9_-]{22}$/);
    // The refusal's alert is gone by the time the secret shows.
    await expect(page.getByRole('alert').allTextContents()).resolves.toEqual([]);
    await page.getByRole('button', { name: 'Copy secret' }).click();
    await expect(page.evaluate<string>('navigator.clipboard.readText()')).resolves.toBe(secret);
    const item = page.locator('#system-list > li');
    await expect(item.getByRole('heading').textContent()).resolves.toBe('SAP production');
    await expect(item.textContent()).resolves.toContain('Scopes: processes:read, changes:read');
    await expect(item.textContent()).resolves.toContain('last used never');
    await page.screenshot({ path: `${PORTAL_SCREENSHOTS}/system-registered.png`, fullPage: true });
    expect(await seriousAccessibilityViolations(page)).toEqual([]);

    // Shown once: gone from the page when dismissed; the system signs in with it.
    await page.getByRole('button', { name: 'Done' }).click();
    await expect(secretField.isVisible()).resolves.toBe(false);
    expect(await page.content()).not.toContain(secret);
    expect(await tokenStatus(clientId, secret)).toBe(200);
    await page.getByRole('button', { name: 'Processes' }).click();
    await page.getByRole('button', { name: 'Systems' }).click();
    await expect(item.textContent()).resolves.not.toContain('last used never');

    // A new secret, shown once too; the old one keeps working (for 24 h).
    await item.getByRole('button', { name: 'New secret' }).click();
    // The field can render before its value: wait for a secret, not merely for another value.
    await waitUntil(async () => {
      const shown = await secretField.inputValue();
      return shown !== '' && shown !== secret;
    }, 10_000);
    const rotated = await secretField.inputValue();
    expect(rotated).toMatch(/^pls_/);
    expect(await tokenStatus(clientId, rotated)).toBe(200);
    expect(await tokenStatus(clientId, secret)).toBe(200);

    page.once('dialog', (dialog) => void dialog.accept());
    await item.getByRole('button', { name: 'Delete' }).click();
    await page.getByText('No systems yet.').waitFor();
    await expect(clientsOfAcme()).resolves.toEqual([]);
    expect(await tokenStatus(clientId, rotated)).toBe(401);
    expect(consoleErrors).toEqual([]);
    await page.close();
  });
});
