import { EventEmitter, once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { jest } from '@jest/globals';
import { Webhook } from 'standardwebhooks';
import type { FakeClock } from '../../../src/testing/fake-clock.js';

/** One request a receiver got. */
export interface ReceivedDelivery {
  id: string;
  timestamp: string;
  signature: string;
  contentType: string | undefined;
  body: string;
  payload: { type: string; timestamp: string; data: { cursor: string; kind: string; numero: string } };
}

/** What the receiver answers a request with: a status (and headers), or nothing until released. */
export type ReceiverAnswer = { status: number; headers?: Record<string, string> } | 'hang';

/**
 * A webhook receiver on a local port: records every request and answers as the test says
 * (200 unless told otherwise).
 */
export class WebhookReceiver {
  readonly received: ReceivedDelivery[] = [];
  answer: (delivery: ReceivedDelivery) => ReceiverAnswer | Promise<ReceiverAnswer> = () => ({ status: 200 });
  private readonly hanging: ServerResponse[] = [];
  /** Emits `received` after each request has been recorded. */
  private readonly events = new EventEmitter();

  private constructor(private readonly server: Server) {}

  static async start(): Promise<WebhookReceiver> {
    const server = createServer();
    const receiver = new WebhookReceiver(server);
    server.on('request', (request, response) => void receiver.handle(request, response));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return receiver;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hooks`;
  }

  /** The changes delivered with a 2xx, in the order they came. */
  get acceptedNumeros(): string[] {
    return this.received.filter((delivery) => this.accepted.has(delivery)).map((d) => d.payload.data.numero);
  }

  private readonly accepted = new Set<ReceivedDelivery>();

  /**
   * Resolves once `count` requests have arrived (without polling); rejects with what did arrive if
   * `signal` aborts first.
   */
  async waitForRequests(count: number, signal: AbortSignal): Promise<void> {
    while (this.received.length < count) {
      try {
        await once(this.events, 'received', { signal });
      } catch {
        throw new Error(
          `${this.received.length} of ${count} requests arrived: ${this.received.map((d) => d.payload.data.numero).join(', ')}`,
        );
      }
    }
  }

  /** Drops the connections of requests left hanging (as a receiver that died would). */
  dropHanging(): void {
    for (const response of this.hanging.splice(0)) response.socket?.destroy();
  }

  async close(): Promise<void> {
    this.dropHanging();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    const delivery: ReceivedDelivery = {
      id: String(request.headers['webhook-id']),
      timestamp: String(request.headers['webhook-timestamp']),
      signature: String(request.headers['webhook-signature']),
      contentType: request.headers['content-type'],
      body,
      payload: JSON.parse(body) as ReceivedDelivery['payload'],
    };
    this.received.push(delivery);
    const answer = await this.answer(delivery);
    if (answer === 'hang') {
      this.hanging.push(response);
      this.events.emit('received');
      return;
    }
    if (answer.status >= 200 && answer.status < 300) this.accepted.add(delivery);
    response.writeHead(answer.status, answer.headers).end('ok');
    this.events.emit('received');
  }
}

/**
 * Whether Standard Webhooks' own library accepts the delivery with `secret`, at the fake clock's
 * time (it refuses timestamps five minutes from its own now).
 */
export function verifiedWith(secret: string, delivery: ReceivedDelivery, clock: FakeClock): boolean {
  const now = jest.spyOn(Date, 'now').mockReturnValue(clock.now().getTime());
  try {
    return verifiedNow(secret, delivery);
  } finally {
    now.mockRestore();
  }
}

/** Whether Standard Webhooks' own library accepts the delivery with `secret` now (a service on the real clock). */
export function verifiedNow(secret: string, delivery: ReceivedDelivery): boolean {
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
