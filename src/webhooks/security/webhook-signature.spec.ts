import { jest } from '@jest/globals';
import { Webhook } from 'standardwebhooks';
import { newWebhookSecret } from './webhook-secret.js';
import { signatureHeader, verifySignature } from './webhook-signature.js';

describe(signatureHeader.name, () => {
  const content = { messageId: 'AAAAAAAAAQn44-hy', timestampSeconds: 1_773_489_600, body: '{"type":"x"}' };
  const headersOf = (signature: string) => ({
    'webhook-id': content.messageId,
    'webhook-timestamp': String(content.timestampSeconds),
    'webhook-signature': signature,
  });
  const verifiedBy = (secret: string, signature: string): boolean => {
    const now = jest.spyOn(Date, 'now').mockReturnValue(content.timestampSeconds * 1000);
    try {
      new Webhook(secret).verify(content.body, headersOf(signature));
      return true;
    } catch {
      return false;
    } finally {
      now.mockRestore();
    }
  };

  it('signs as Standard Webhooks verifies, with every secret given', () => {
    const [current, previous, other] = [newWebhookSecret(), newWebhookSecret(), newWebhookSecret()];
    const header = signatureHeader(content, [current, previous]);

    expect(header).toMatch(/^v1,[A-Za-z0-9+/]{43}= v1,[A-Za-z0-9+/]{43}=$/);
    expect([verifiedBy(current, header), verifiedBy(previous, header), verifiedBy(other, header)]).toEqual([
      true,
      true,
      false,
    ]);
  });

  it('verifies its own signatures, within the tolerance only', () => {
    const secret = newWebhookSecret();
    const header = signatureHeader(content, [secret]);

    expect(verifySignature(content, header, secret, content.timestampSeconds + 10)).toBe(true);
    expect(verifySignature(content, header, secret, content.timestampSeconds + 301)).toBe(false);
    expect(verifySignature({ ...content, body: '{}' }, header, secret, content.timestampSeconds)).toBe(false);
    expect(verifySignature(content, header, newWebhookSecret(), content.timestampSeconds)).toBe(false);
  });
});
