import { newWebhookSecret } from '../security/webhook-secret.js';
import { signatureHeader } from '../security/webhook-signature.js';
import { startWebhookListener } from './webhook-listener.js';

describe(startWebhookListener.name, () => {
  const secret = newWebhookSecret();
  const now = 1_773_489_600;
  const body =
    '{"type":"process.status_changed","timestamp":"2026-03-14T12:00:00Z","data":{"numero":"IMP-1","status":"ARRIVED"}}';
  const post = (url: string, signature: string) =>
    fetch(url, {
      method: 'POST',
      headers: {
        'webhook-id': 'AAAAAAAAAQn44-hy',
        'webhook-timestamp': String(now),
        'webhook-signature': signature,
      },
      body,
    });

  it('answers 204 to a delivery signed with its secret, 401 otherwise, and prints each', async () => {
    const printed: string[] = [];
    const sut = await startWebhookListener({
      port: 0,
      host: '127.0.0.1',
      secret,
      print: (line) => printed.push(line),
      nowSeconds: () => now,
    });
    try {
      const content = { messageId: 'AAAAAAAAAQn44-hy', timestampSeconds: now, body };
      const good = await post(sut.url, signatureHeader(content, [newWebhookSecret(), secret]));
      const bad = await post(sut.url, signatureHeader(content, [newWebhookSecret()]));

      expect([good.status, bad.status]).toEqual([204, 401]);
      expect(printed[0]).toContain('AAAAAAAAAQn44-hy process.status_changed IMP-1 ARRIVED [signature ok]');
      expect(printed[0]).toContain(body);
      expect(printed[1]).toContain('SIGNATURE INVALID');
    } finally {
      await new Promise((resolve) => sut.close(resolve));
    }
  });
});
