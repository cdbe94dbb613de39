import { WebhookDeliverer } from '../../src/webhooks/delivery/webhook-deliverer.js';
import { HostResolver, type ResolvedAddress } from '../../src/webhooks/security/host-resolver.js';
import { TestApp } from '../support/test-app.js';
import { aChange, recordChanges } from './support/record-changes.js';

/** DNS as an attacker runs it: a public address while the subscription is checked, loopback after. */
class RebindingResolver extends HostResolver {
  answers: ResolvedAddress[] = [{ address: '93.184.216.34', family: 4 }];

  resolve(): Promise<ResolvedAddress[]> {
    return Promise.resolve(this.answers);
  }
}

describe('webhook targets, as production checks them', () => {
  let testApp: TestApp;
  let token: string;
  const resolver = new RebindingResolver();

  const create = (url: string) =>
    testApp.http.post('/api/webhooks').set('Authorization', `Bearer ${token}`).send({ url });

  beforeAll(async () => {
    testApp = await TestApp.start({
      env: { WEBHOOK_ALLOW_HTTP: 'false', WEBHOOK_ALLOW_PRIVATE_TARGETS: 'false' },
      override: (builder) => builder.overrideProvider(HostResolver).useValue(resolver),
    });
    await testApp.addCustomers({ id: 'acme', name: 'ACME' });
    await testApp.addUser({ username: 'acme', password: 'acme-pass-1', customerIds: ['acme'] });
    token = await testApp.login('acme', 'acme-pass-1');
  });

  afterAll(() => testApp.close());

  it.each([
    ['http://erp.example.com/hook', 'must be an https:// URL'],
    ['https://127.0.0.1/hook', 'leads to a loopback, private, multicast or reserved address (127.0.0.1)'],
    ['https://[::1]/hook', 'leads to a loopback, private, multicast or reserved address (::1)'],
    ['https://10.1.2.3/hook', 'leads to a loopback, private, multicast or reserved address (10.1.2.3)'],
    ['https://169.254.169.254/latest', 'leads to a link-local or unspecified address (169.254.169.254)'],
    ['https://0.0.0.0/hook', 'leads to a link-local or unspecified address (0.0.0.0)'],
    ['https://user:pass@erp.example.com/hook', 'must not carry credentials'],
  ])('refuses %s at creation: %s', async (url, message) => {
    const response = await create(url).expect(400);

    expect(response.body.errors).toEqual([{ in: 'body', name: 'url', message }]);
  });

  it('checks the address again at each delivery, and refuses one DNS now points to loopback', async () => {
    const { body } = await create('https://erp.example.com/hook').expect(201);
    resolver.answers = [{ address: '127.0.0.1', family: 4 }];
    await recordChanges(testApp, aChange('acme', 'IMP-1'));

    await testApp.app.get(WebhookDeliverer).drain();

    const { body: log } = await testApp.http
      .get(`/api/webhooks/${(body as { id: string }).id}/deliveries`)
      .set('Authorization', `Bearer ${token}`)
      .expect(200);
    expect((log as { data: unknown[] }).data).toEqual([
      expect.objectContaining({
        attempt: 1,
        responseStatus: null,
        error: 'target refused: leads to a loopback, private, multicast or reserved address (127.0.0.1)',
        nextAttemptAt: expect.any(String),
      }),
    ]);
  });
});
