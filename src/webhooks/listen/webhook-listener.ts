import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { verifySignature } from '../security/webhook-signature.js';

export interface WebhookListenerOptions {
  port: number;
  host: string;
  /** The subscription's `whsec_…` secret. */
  secret: string;
  /** Where each delivery is printed. */
  print: (line: string) => void;
  /** Unix seconds now (the timestamp check's reference). */
  nowSeconds?: () => number;
}

/** The most of a delivery read; a delivery is one change, a few kilobytes. */
const MAX_BODY_BYTES = 1024 * 1024;

/**
 * A receiver for trying webhooks out: it checks each delivery's Standard Webhooks signature with
 * the secret, prints it, and answers 204 (401 when the signature does not verify, so the service
 * tries again: a wrong secret shows at once).
 */
export async function startWebhookListener(
  options: WebhookListenerOptions,
): Promise<Server & { url: string }> {
  const nowSeconds = options.nowSeconds ?? (() => Math.floor(Date.now() / 1000));
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) chunks.push(chunk);
    });
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const header = (name: string) => String(request.headers[name] ?? '');
      const content = {
        messageId: header('webhook-id'),
        timestampSeconds: Number(header('webhook-timestamp')),
        body,
      };
      const valid =
        request.method === 'POST' &&
        verifySignature(content, header('webhook-signature'), options.secret, nowSeconds());
      options.print(describe(content.messageId, body, valid));
      response.writeHead(valid ? 204 : 401).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(options.port, options.host, resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(server, { url: `http://${options.host}:${port}/` });
}

function describe(messageId: string, body: string, valid: boolean): string {
  let summary = '';
  try {
    const payload = JSON.parse(body) as { type?: string; data?: { numero?: string; status?: string } };
    summary = [payload.type, payload.data?.numero, payload.data?.status].filter(Boolean).join(' ');
  } catch {
    summary = 'not JSON';
  }
  const verdict = valid ? 'signature ok' : 'SIGNATURE INVALID (answered 401)';
  return `${new Date().toISOString()} ${messageId} ${summary} [${verdict}]\n${body}`;
}
