import { createHmac, timingSafeEqual } from 'node:crypto';
import { secretKeyBytes } from './webhook-secret.js';

/** What a delivery is signed over (Standard Webhooks v1): its id, its Unix timestamp and its body. */
export interface SignedContent {
  messageId: string;
  timestampSeconds: number;
  body: string;
}

/** `v1,<base64 HMAC-SHA256 of "{id}.{timestamp}.{body}">` for each secret, space-separated. */
export function signatureHeader(content: SignedContent, secrets: readonly string[]): string {
  return secrets.map((secret) => `v1,${signatureOf(content, secret)}`).join(' ');
}

/**
 * Whether one of the header's `v1` signatures is the secret's, and the timestamp lies within
 * `toleranceSeconds` of `nowSeconds` (a replayed old delivery is refused).
 */
export function verifySignature(
  content: SignedContent,
  header: string,
  secret: string,
  nowSeconds: number,
  toleranceSeconds = 300,
): boolean {
  if (Math.abs(nowSeconds - content.timestampSeconds) > toleranceSeconds) return false;
  const expected = Buffer.from(signatureOf(content, secret));
  return header.split(' ').some((entry) => {
    const [version, signature] = entry.split(',', 2);
    if (version !== 'v1' || signature === undefined) return false;
    const given = Buffer.from(signature);
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}

function signatureOf({ messageId, timestampSeconds, body }: SignedContent, secret: string): string {
  return createHmac('sha256', secretKeyBytes(secret))
    .update(`${messageId}.${timestampSeconds}.${body}`)
    .digest('base64');
}

/** The headers of a delivery: JSON, the Standard Webhooks trio, and who sends it. */
export function deliveryHeaders(content: SignedContent, secrets: readonly string[]): Record<string, string> {
  return {
    'content-type': 'application/json',
    'user-agent': 'process-lookup-webhooks/1',
    'webhook-id': content.messageId,
    'webhook-timestamp': String(content.timestampSeconds),
    'webhook-signature': signatureHeader(content, secrets),
  };
}
