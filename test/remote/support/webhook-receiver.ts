import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import type { WebhookPayload } from './api-types.js';
import { remoteConfig } from './remote-config.js';

/** One request the receiver got, with the status it answered. */
export interface Delivery {
  /** The path it came to: each subscription of the suite delivers to a path of its own. */
  path: string;
  id: string;
  timestamp: string;
  signature: string;
  contentType: string | undefined;
  body: string;
  payload: WebhookPayload;
  answered: number;
}

/**
 * The suite's own webhook receiver: a node:http server (on 127.0.0.1 and a free port unless told
 * otherwise) that records every request and answers 200, or what the test says.
 */
export class WebhookReceiver {
  readonly received: Delivery[] = [];
  /** The status to answer a request with; 200 unless a test says otherwise. */
  answer: (request: Omit<Delivery, 'answered'>) => number = () => 200;

  private constructor(private readonly server: Server) {}

  static async start(): Promise<WebhookReceiver> {
    const server = createServer();
    const receiver = new WebhookReceiver(server);
    server.on('request', (request, response) => void receiver.handle(request, response));
    await new Promise<void>((resolve) => server.listen(0, remoteConfig.receiver.host, resolve));
    return receiver;
  }

  /** The URL the deployment delivers to: this server's own, or `E2E_WEBHOOK_RECEIVER_URL` in front of it. */
  get url(): string {
    const { port } = this.server.address() as AddressInfo;
    return remoteConfig.receiver.publicUrl ?? `http://${remoteConfig.receiver.host}:${port}/hooks`;
  }

  /** The URL of a path of its own for one subscription. */
  urlFor(path: string): string {
    return `${this.url}/${path}`;
  }

  /** The requests that came to one subscription's path, in the order they came. */
  at(path: string): Delivery[] {
    return this.received.filter((delivery) => delivery.path.endsWith(`/${path}`));
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    const delivery = {
      path: request.url ?? '',
      id: String(request.headers['webhook-id']),
      timestamp: String(request.headers['webhook-timestamp']),
      signature: String(request.headers['webhook-signature']),
      contentType: request.headers['content-type'],
      body,
      payload: JSON.parse(body) as WebhookPayload,
    };
    const status = this.answer(delivery);
    this.received.push({ ...delivery, answered: status });
    response.writeHead(status).end();
  }
}

/** Whether Standard Webhooks' own library accepts the delivery as signed with `secret`. */
export function signedWith(secret: string, delivery: Delivery): boolean {
  try {
    new Webhook(secret).verify(delivery.body, {
      'webhook-id': delivery.id,
      'webhook-timestamp': delivery.timestamp,
      'webhook-signature': delivery.signature,
    });
    return true;
  } catch {
    return false;
  }
}
