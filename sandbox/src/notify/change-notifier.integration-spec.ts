import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { ChangeNotifier } from './change-notifier.js';

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';

interface Received {
  headers: IncomingMessage['headers'];
  body: string;
}

describe(ChangeNotifier.name, () => {
  let server: Server;
  let url: string;
  const received: Received[] = [];
  let failuresToAnswer = 0;

  beforeEach(async () => {
    received.length = 0;
    failuresToAnswer = 0;
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
        res.writeHead(failuresToAnswer-- > 0 ? 500 : 202).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/operations/notifications`;
  });

  afterEach(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const notifier = (log: (line: string) => void = () => undefined) =>
    new ChangeNotifier({
      url,
      secret: SECRET,
      clock: { now: () => new Date('2026-03-14T12:00:00Z') },
      log,
      retryDelaysMs: [10, 10],
    });

  it('sends processes.changed messages that Standard Webhooks verifies, in order', async () => {
    const sut = notifier();
    sut.notify(['IMP-2026-000001']);
    sut.notify(['EXP-2026-000002', 'IMP-2026-000003']);
    await sut.idle();

    const verifier = new Webhook(SECRET);
    const payloads = received.map(({ headers, body }) =>
      verifier.verify(body, {
        'webhook-id': String(headers['webhook-id']),
        'webhook-timestamp': String(headers['webhook-timestamp']),
        'webhook-signature': String(headers['webhook-signature']),
      }),
    );
    expect(payloads).toEqual([
      {
        type: 'processes.changed',
        timestamp: '2026-03-14T12:00:00.000Z',
        data: { numeros: ['IMP-2026-000001'] },
      },
      {
        type: 'processes.changed',
        timestamp: '2026-03-14T12:00:00.000Z',
        data: { numeros: ['EXP-2026-000002', 'IMP-2026-000003'] },
      },
    ]);
  });

  it('tries a message again with the same id, and gives up saying so', async () => {
    const lines: string[] = [];
    failuresToAnswer = 1;
    const sut = notifier((line) => lines.push(line));
    sut.notify(['IMP-2026-000001']);
    await sut.idle();
    expect(received).toHaveLength(2);
    expect(received[0]?.headers['webhook-id']).toBe(received[1]?.headers['webhook-id']);
    expect(lines).toEqual([]);

    failuresToAnswer = 10;
    sut.notify(['IMP-2026-000001']);
    await sut.idle();
    expect(received).toHaveLength(5);
    expect(lines).toEqual([expect.stringMatching(/not delivered: HTTP 500/)]);
  });

  it('splits a long list into messages of at most the batch size', async () => {
    const sut = new ChangeNotifier({
      url,
      secret: SECRET,
      clock: { now: () => new Date() },
      log: () => undefined,
      batchSize: 2,
    });
    sut.notify(['A-1', 'A-2', 'A-3']);
    await sut.idle();
    expect(
      received.map(({ body }) => (JSON.parse(body) as { data: { numeros: string[] } }).data.numeros),
    ).toEqual([['A-1', 'A-2'], ['A-3']]);
  });
});
