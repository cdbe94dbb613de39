import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadAppConfig } from '../../config/app.config.js';
import { HostResolver, type ResolvedAddress } from '../security/host-resolver.js';
import { WebhookTargetPolicy } from '../security/webhook-target-policy.js';
import { HttpWebhookTransport } from './http-webhook-transport.js';
import type { WebhookRequest } from './webhook-transport.js';

/** Answers each lookup of a name with the next of its answers (the last one repeating). */
class ScriptedResolver extends HostResolver {
  readonly asked: string[] = [];

  constructor(private readonly answers: ResolvedAddress[][]) {
    super();
  }

  resolve(host: string): Promise<ResolvedAddress[]> {
    this.asked.push(host);
    return Promise.resolve(this.answers[Math.min(this.asked.length, this.answers.length) - 1]!);
  }
}

describe(HttpWebhookTransport.name, () => {
  let server: Server;
  let port: number;
  let handler: (request: IncomingMessage, response: ServerResponse) => void;
  const sut: HttpWebhookTransport[] = [];

  const transport = (
    env: Record<string, string> = { WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' },
    resolver: HostResolver = new ScriptedResolver([[{ address: '127.0.0.1', family: 4 }]]),
    limits = { timeoutMs: 200, maxResponseBytes: 1024 },
  ) => {
    const config = loadAppConfig({ NODE_ENV: 'test', ...env });
    const created = new HttpWebhookTransport(new WebhookTargetPolicy(config, resolver), limits);
    sut.push(created);
    return created;
  };
  const request = (url = `http://127.0.0.1:${port}/hook`): WebhookRequest => ({
    url,
    headers: { 'content-type': 'application/json', 'webhook-id': 'AAAAAAAAAQn44-hy' },
    body: '{"type":"process.status_changed"}',
    signal: new AbortController().signal,
  });

  beforeAll(async () => {
    server = createServer((req, res) => handler(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });

  afterEach(() => {
    for (const created of sut.splice(0)) created.onApplicationShutdown();
    server.closeAllConnections();
  });

  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('POSTs the body with its headers and reports the status', async () => {
    let received: { method?: string; headers?: IncomingMessage['headers']; body?: string } = {};
    handler = (req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        received = { method: req.method, headers: req.headers, body };
        res.writeHead(503, { 'Retry-After': '30' }).end();
      });
    };

    const outcome = await transport().send(request());

    expect(outcome).toMatchObject({ kind: 'answered', status: 503, retryAfter: '30' });
    expect(received.method).toBe('POST');
    expect(received.body).toBe('{"type":"process.status_changed"}');
    expect(received.headers?.['webhook-id']).toBe('AAAAAAAAAQn44-hy');
  });

  it('does not follow a redirect', async () => {
    handler = (_req, res) => res.writeHead(307, { Location: 'http://169.254.169.254/latest' }).end();

    expect(await transport().send(request())).toMatchObject({ kind: 'answered', status: 307 });
  });

  it('gives up on a receiver that does not answer in time', async () => {
    handler = () => undefined;

    expect(await transport().send(request())).toMatchObject({ kind: 'failed', failure: 'timeout' });
  });

  it('reads no more than the limit of an answer', async () => {
    let written = 0;
    handler = (_req, res) => {
      res.writeHead(200);
      const chunk = Buffer.alloc(512, 'x');
      // An endless answer: only the limit is read before the connection is dropped.
      const pump = () => {
        while (res.write(chunk)) written += chunk.length;
        written += chunk.length;
      };
      res.on('drain', pump);
      pump();
    };

    expect(await transport().send(request())).toMatchObject({ kind: 'answered', status: 200 });
    expect(written).toBeGreaterThan(1024);
  });

  it('sends again, on a new connection, what a kept-alive one lost as the receiver closed it', async () => {
    const connections = new Set<unknown>();
    const answered: string[] = [];
    // The first request on a connection is answered; the next one on it finds it closed, as when
    // a receiver's idle timeout and a reuse cross.
    const requestsOn = new WeakMap<object, number>();
    handler = (req, res) => {
      connections.add(req.socket);
      const count = (requestsOn.get(req.socket) ?? 0) + 1;
      requestsOn.set(req.socket, count);
      if (count > 1) {
        req.socket.destroy();
        return;
      }
      req.resume().on('end', () => {
        answered.push(req.headers['webhook-id'] as string);
        res.writeHead(204).end();
      });
    };
    const sut = transport();

    const first = await sut.send(request());
    const second = await sut.send(request());

    expect([first, second]).toMatchObject([
      { kind: 'answered', status: 204 },
      { kind: 'answered', status: 204 },
    ]);
    expect(answered).toHaveLength(2);
    expect(connections.size).toBe(2);
  });

  it('reports a connection reset before any answer when it was not a reused one', async () => {
    let requests = 0;
    handler = (req) => {
      requests += 1;
      req.socket.destroy();
    };

    expect(await transport().send(request())).toMatchObject({
      kind: 'failed',
      failure: 'network',
      error: 'connection reset by the receiver',
    });
    expect(requests).toBe(1);
  });

  it('reports a refused connection', async () => {
    handler = (req) => req.socket.destroy();

    expect(await transport().send(request())).toMatchObject({ kind: 'failed', failure: 'network' });
  });

  it('refuses private targets unless allowed, without connecting', async () => {
    let connections = 0;
    handler = (_req, res) => {
      connections += 1;
      res.end();
    };

    const outcome = await transport({
      WEBHOOK_ALLOW_HTTP: 'true',
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'false',
    }).send(request());

    expect(outcome).toMatchObject({ kind: 'failed', failure: 'target-refused' });
    expect(connections).toBe(0);
  });

  it('connects to the address it checked, whatever DNS answers next (no rebinding)', async () => {
    let connections = 0;
    handler = (_req, res) => {
      connections += 1;
      res.end();
    };
    // The name first resolves to this (allowed) receiver, then to the metadata address.
    const resolver = new ScriptedResolver([
      [{ address: '127.0.0.1', family: 4 }],
      [{ address: '169.254.169.254', family: 4 }],
    ]);
    const sutWithName = transport(
      { WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' },
      resolver,
    );

    const first = await sutWithName.send(request(`http://receiver.example.test:${port}/hook`));
    const second = await sutWithName.send(request(`http://receiver.example.test:${port}/hook`));

    expect(first).toMatchObject({ kind: 'answered', status: 200 });
    expect(second).toMatchObject({ kind: 'failed', failure: 'target-refused' });
    expect(second.kind === 'failed' && second.error).toContain('169.254.169.254');
    expect(resolver.asked).toEqual(['receiver.example.test', 'receiver.example.test']);
    expect(connections).toBe(1);
  });

  it('counts an aborted attempt as not made', async () => {
    handler = () => undefined;
    const controller = new AbortController();
    const sending = transport(undefined, undefined, { timeoutMs: 5000, maxResponseBytes: 1024 }).send({
      ...request(),
      signal: controller.signal,
    });
    setImmediate(() => controller.abort());

    expect(await sending).toEqual({ kind: 'aborted' });
  });
});
