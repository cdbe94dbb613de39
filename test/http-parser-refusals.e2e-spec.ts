import type { Server } from 'node:http';
import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { TestApp } from './support/test-app.js';

/** Sends raw bytes and reads until the service closes the connection. */
function rawExchange(port: number, bytes: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(bytes));
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('end', () => resolve(Buffer.concat(chunks).toString()));
    socket.on('error', reject);
    socket.setTimeout(5000, () => socket.destroy(new Error('no answer')));
  });
}

interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: Record<string, unknown>;
}

function parse(raw: string): RawAnswer {
  const [head = '', body = ''] = raw.split('\r\n\r\n');
  const [statusLine = '', ...lines] = head.split('\r\n');
  const headers = Object.fromEntries(
    lines.map((line) => [
      line.slice(0, line.indexOf(':')).toLowerCase(),
      line.slice(line.indexOf(':') + 1).trim(),
    ]),
  );
  return {
    status: Number(statusLine.split(' ')[1]),
    headers,
    body: JSON.parse(body) as Record<string, unknown>,
  };
}

describe("what Node's HTTP parser refuses", () => {
  let testApp: TestApp;
  let port: number;

  beforeAll(async () => {
    testApp = await TestApp.start();
    await testApp.app.listen(0, '127.0.0.1');
    port = (testApp.app.getHttpServer().address() as AddressInfo).port;
  });

  afterAll(() => testApp.close());

  it.each([
    ['a malformed request line', 'NOT HTTP AT ALL\r\n\r\n', 400, '/problems/invalid-request'],
    [
      'headers over the limit',
      `GET / HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20 * 1024)}\r\n\r\n`,
      431,
      '/problems/request-headers-too-large',
    ],
    [
      'an Expect it cannot meet',
      'GET /health/live HTTP/1.1\r\nHost: x\r\nExpect: 101-magic\r\n\r\n',
      417,
      '/problems/expectation-failed',
    ],
  ])(
    'answers %s with problem+json, an X-Request-Id and Connection: close',
    async (_case, bytes, status, type) => {
      const answer = parse(await rawExchange(port, bytes));

      expect(answer.status).toBe(status);
      expect(answer.headers['content-type']).toBe('application/problem+json');
      expect(answer.headers['x-request-id']).toMatch(/^[A-Za-z0-9._-]{1,128}$/);
      expect(answer.headers.connection).toBe('close');
      expect(answer.body).toMatchObject({ type, status, requestId: answer.headers['x-request-id'] });
    },
  );

  it('counts them', async () => {
    await rawExchange(port, 'BROKEN\r\n\r\n');
    const metrics = await testApp.http.get('/metrics').expect(200);
    expect(metrics.text).toMatch(/http_parser_refusals_total\{status="400"\} [1-9]/);
    expect(metrics.text).toMatch(/http_parser_refusals_total\{status="431"\} 1/);
  });

  it('sets the server timeouts deliberately, checked every second rather than every 30', () => {
    // Set from the options the server was created with; @types/node 20 does not declare it.
    const server = testApp.app.getHttpServer() as Server & { connectionsCheckingInterval: number };
    expect([
      server.headersTimeout,
      server.requestTimeout,
      server.keepAliveTimeout,
      server.connectionsCheckingInterval,
    ]).toEqual([10_000, 30_000, 65_000, 1000]);
  });

  it('answers a valid request pipelined before a malformed one, then refuses the malformed one', async () => {
    const raw = await rawExchange(
      port,
      'GET /health/live HTTP/1.1\r\nHost: x\r\n\r\nNOT HTTP AT ALL\r\n\r\n',
    );

    const [first = '', ...rest] = raw.split(/(?=HTTP\/1\.1 )/);
    expect(first).toMatch(/^HTTP\/1\.1 200 /);
    expect(rest).toHaveLength(1);
    const refusal = parse(rest.join(''));
    expect(refusal.status).toBe(400);
    expect(refusal.headers['content-type']).toBe('application/problem+json');
  });

  it('refuses the malformed request after a pipelined one on a warm service too, every time', async () => {
    for (let warmUp = 0; warmUp < 200; warmUp++) await rawExchange(port, 'GET /health/live HTTP/1.0\r\n\r\n');

    const statuses: string[] = [];
    for (let attempt = 0; attempt < 50; attempt++) {
      const raw = await rawExchange(
        port,
        'GET /health/live HTTP/1.1\r\nHost: x\r\n\r\nNOT HTTP AT ALL\r\n\r\n',
      );
      statuses.push(
        raw
          .split(/(?=HTTP\/1\.1 )/)
          .map((answer) => answer.slice(9, 12))
          .join(' then '),
      );
    }

    expect(statuses).toEqual(Array.from({ length: 50 }, () => '200 then 400'));
  });

  it('answers an HTTP/1.1 request without Host with a 400 naming the header', async () => {
    const answer = parse(await rawExchange(port, 'GET /health/live HTTP/1.1\r\nConnection: close\r\n\r\n'));

    expect(answer.status).toBe(400);
    expect(answer.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(answer.headers['x-request-id']).toMatch(/^[A-Za-z0-9._-]{1,128}$/);
    expect(answer.body).toMatchObject({
      type: '/problems/invalid-request',
      errors: [{ in: 'header', name: 'Host', message: 'is required in HTTP/1.1' }],
    });
  });

  it('serves an HTTP/1.0 request without Host, which that version allows', async () => {
    const raw = await rawExchange(port, 'GET /health/live HTTP/1.0\r\n\r\n');

    expect(raw).toMatch(/^HTTP\/1\.1 200 /);
  });

  it('answers CONNECT with a 405, not a dropped connection', async () => {
    const answer = parse(
      await rawExchange(port, 'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n'),
    );

    expect(answer.status).toBe(405);
    expect(answer.headers['content-type']).toBe('application/problem+json');
    expect(answer.headers.allow).toBe('GET, HEAD, POST, OPTIONS');
    expect(answer.body).toMatchObject({
      type: '/problems/method-not-allowed',
      status: 405,
      requestId: answer.headers['x-request-id'],
    });
  });
});

describe('requests too slow to arrive', () => {
  let testApp: TestApp;
  let port: number;

  beforeAll(async () => {
    testApp = await TestApp.start({
      httpServerTimeouts: {
        headersTimeoutMs: 300,
        requestTimeoutMs: 600,
        keepAliveTimeoutMs: 5000,
        checkIntervalMs: 50,
      },
    });
    await testApp.app.listen(0, '127.0.0.1');
    port = (testApp.app.getHttpServer().address() as AddressInfo).port;
  });

  afterAll(() => testApp.close());

  it.each([
    ['headers that never end', 'GET /health/live HTTP/1.1\r\nHost: x\r\nX-Slow: '],
    [
      'a body that never ends',
      'POST /api/auth/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"user',
    ],
  ])('answers %s with a 408 once the configured limit passes', async (_case, bytes) => {
    const answer = parse(await rawExchange(port, bytes));

    expect(answer.status).toBe(408);
    expect(answer.headers['content-type']).toBe('application/problem+json');
    expect(answer.body).toMatchObject({ type: '/problems/request-timeout', status: 408 });
  });
});
