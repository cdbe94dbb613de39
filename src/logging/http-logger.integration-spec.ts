import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import express, { type Request, type Response } from 'express';
import { requestIdMiddleware } from '../common/http/request-id.js';
import { HttpLogger } from './http-logger.js';
import { createRootLogger } from './root-logger.js';
import { statusOf } from '../testing/status-of.js';

interface LogLine {
  level: string;
  msg: string;
  requestId?: string;
  req?: { method: string; url: string };
  res?: { statusCode: number };
  err?: { message: string };
  durationMs?: number;
  route?: string;
}

describe(HttpLogger.name, () => {
  let lines: LogLine[];
  let baseUrl: string;
  let server: ReturnType<express.Express['listen']>;
  let handlerStarted: () => void;

  beforeAll(async () => {
    lines = [];
    const destination = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(
          ...chunk
            .toString()
            .trim()
            .split('\n')
            .map((text) => JSON.parse(text) as LogLine),
        );
        done();
      },
    });
    const root = createRootLogger({ logLevel: 'info', nodeEnv: 'test' }, destination);
    const app = express();
    app.use(requestIdMiddleware);
    app.use(new HttpLogger(root).middleware);
    app.get('/ok', (_request: Request, response: Response) => void response.json({ ok: true }));
    app.get('/down', (_request: Request, response: Response) => void response.status(503).end());
    app.get('/health/live', (_request: Request, response: Response) => void response.end());
    // Never answers: the client gives up first.
    app.get('/slow', () => handlerStarted());
    server = app.listen(0, '127.0.0.1');
    await once(server, 'listening');
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    server.closeAllConnections();
    server.close();
    await once(server, 'close');
  });

  beforeEach(() => {
    lines.length = 0;
  });

  const lineOf = async (requestId: string): Promise<LogLine | undefined> => {
    // The line is written when the response finishes, just after the client has its answer.
    for (let attempt = 0; attempt < 50 && !lines.some((line) => line.requestId === requestId); attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    return lines.find((line) => line.requestId === requestId);
  };

  it('writes one info line per answered request, with its id, method, URL, status and duration', async () => {
    await statusOf(`${baseUrl}/ok?page=2`, { headers: { 'X-Request-Id': 'req-ok' } });

    expect(await lineOf('req-ok')).toMatchObject({
      level: 'info',
      msg: 'request completed',
      req: { method: 'GET', url: '/ok?page=2' },
      res: { statusCode: 200 },
      durationMs: expect.any(Number),
    });
    expect(lines.filter((line) => line.requestId === 'req-ok')).toHaveLength(1);
  });

  it('writes a 5xx at error level, with an error naming the status', async () => {
    await statusOf(`${baseUrl}/down`, { headers: { 'X-Request-Id': 'req-down' } });

    expect(await lineOf('req-down')).toMatchObject({
      level: 'error',
      msg: 'request errored',
      res: { statusCode: 503 },
      err: { message: expect.stringContaining('failed with status code 503') },
    });
  });

  it('writes a line when the client leaves before the answer', async () => {
    const started = new Promise<void>((resolve) => (handlerStarted = resolve));
    const abort = new AbortController();
    const request = fetch(`${baseUrl}/slow`, {
      headers: { 'X-Request-Id': 'req-gone' },
      signal: abort.signal,
    }).catch(() => undefined);
    await started;
    abort.abort();
    await request;

    expect(await lineOf('req-gone')).toMatchObject({ level: 'info', msg: 'request aborted' });
  });

  it('keeps probe lines at debug, below the level here', async () => {
    await statusOf(`${baseUrl}/health/live`, { headers: { 'X-Request-Id': 'req-probe' } });
    await statusOf(`${baseUrl}/ok`, { headers: { 'X-Request-Id': 'req-after-probe' } });

    await lineOf('req-after-probe');
    expect(lines.some((line) => line.requestId === 'req-probe')).toBe(false);
  });
});
