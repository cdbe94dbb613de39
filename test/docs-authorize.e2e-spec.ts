import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { launchChromium } from './support/chromium.js';
import { TestApp } from './support/test-app.js';

/**
 * Swagger UI at /docs, as a developer uses it: Authorize with a client application's id and secret
 * (the OAuth 2.0 client-credentials flow the document declares), then "Try it out".
 */
describe('Swagger UI’s Authorize with client credentials, in Chromium', () => {
  let browser: Browser | null;
  let testApp: TestApp;
  let apiOrigin: string;
  let client: { clientId: string; clientSecret: string };

  beforeAll(async () => {
    browser = await launchChromium('docs authorize browser suite');
    if (browser === null) return;
    testApp = await TestApp.start();
    await testApp.addCustomers({ id: 'acme', name: 'ACME Importadora Ltda' });
    await testApp.addUser({ username: 'acme', password: 'acme-pass-1', customerIds: ['acme'] });
    await testApp.app.listen(0, '127.0.0.1');
    apiOrigin = `http://127.0.0.1:${(testApp.app.getHttpServer().address() as AddressInfo).port}`;
    const token = await testApp.login('acme', 'acme-pass-1');
    client = (
      await testApp.http
        .post('/api/clients')
        .set('Authorization', `Bearer ${token}`)
        .send({ name: 'Swagger UI', scopes: ['processes:read'] })
        .expect(201)
    ).body as { clientId: string; clientSecret: string };
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await testApp?.close();
  });

  it('gets a token from the token endpoint and calls the list with it', async () => {
    if (browser === null) return;
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const consoleErrors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') consoleErrors.push(message.text());
    });
    const tokenRequests: string[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname === '/api/oauth/token')
        tokenRequests.push(request.postData() ?? '');
    });
    await page.goto(`${apiOrigin}/docs`);
    await page.locator('.swagger-ui .info .title').waitFor();

    await page.getByRole('button', { name: 'Authorize' }).first().click();
    const oauth = page.locator('.auth-container').filter({ hasText: 'clientCredentials' });
    await oauth.getByLabel('client_id:').fill(client.clientId);
    await oauth.getByLabel('client_secret:').fill(client.clientSecret);
    // Swagger UI hides the checkbox itself behind its label.
    await oauth.getByText('processes:read', { exact: true }).click();
    await expect(oauth.getByLabel('processes:read').isChecked()).resolves.toBe(true);
    await oauth.getByRole('button', { name: 'Apply given OAuth2 credentials' }).click();
    await oauth.getByText('Authorized', { exact: true }).waitFor();
    await page.locator('.modal-ux .close-modal').click();

    expect(tokenRequests).toHaveLength(1);
    expect(tokenRequests[0]).toContain('grant_type=client_credentials');
    const list = page.locator('#operations-processes-listProcesses');
    await list.locator('.opblock-summary').click();
    await list.getByRole('button', { name: 'Try it out' }).click();
    const [answer] = await Promise.all([
      page.waitForResponse((response) => new URL(response.url()).pathname === '/api/processes'),
      list.getByRole('button', { name: 'Execute' }).click(),
    ]);

    expect(answer.status()).toBe(200);
    const bearer = (await answer.request().headerValue('authorization')) ?? '';
    const claims = JSON.parse(Buffer.from(bearer.split('.')[1] ?? '', 'base64url').toString()) as object;
    expect(claims).toMatchObject({ sub: client.clientId, scope: 'processes:read' });
    await list.locator('.live-responses-table tbody .response-col_status').first().waitFor();
    await expect(
      list.locator('.live-responses-table tbody .response-col_status').first().textContent(),
    ).resolves.toContain('200');
    expect(consoleErrors).toEqual([]);
    await page.close();
  });
});
