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

function parse(raw: string): {
  status: number;
  headers: Record<string, string>;
  body: Record<string, unknown>;
} {
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

  it('sets the server timeouts deliberately', () => {
    const server = testApp.app.getHttpServer();
    expect([server.headersTimeout, server.requestTimeout, server.keepAliveTimeout]).toEqual([
      10_000, 30_000, 65_000,
    ]);
  });
});
