import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { closedPort } from '../src/testing/closed-port.js';
import { createTestDatabase, type TestDatabase } from '../src/testing/test-database.js';
import { testRedisAnswers } from '../src/testing/test-redis.js';
import { OtlpReceiver, SPAN_KIND, type ReceivedSpan } from './support/otlp-receiver.js';
import { waitUntil } from './support/wait-until.js';
import { statusOf } from '../src/testing/status-of.js';

const SUITE = 'Traces exported over OTLP';
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const API_KEY = 'ops-api-key-7d2e4a9c1b';
const PASSWORD = 'Correct-Horse-Battery-81';

async function canRun(): Promise<boolean> {
  if (process.env.TEST_DATABASE_URL === undefined) {
    console.error(`${SUITE}: SKIPPED, needs TEST_DATABASE_URL (statements are traced through node-postgres)`);
    return false;
  }
  return testRedisAnswers(SUITE);
}

/** W3C trace context: version, trace id, parent span id, flags (01: sampled). */
const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-01$/;

/** A loopback HTTP server that records the headers of each request it receives, answering 204. */
async function recordingServer(): Promise<{ server: Server; url: string; received: IncomingHttpHeaders[] }> {
  const received: IncomingHttpHeaders[] = [];
  const server = createServer((request, response) => {
    received.push(request.headers);
    request.resume().on('end', () => response.writeHead(204).end());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, received };
}

/**
 * The sandbox as its own traced process, as `npm start` starts it when tracing is configured: its
 * spans continue the service's calls, under its own service name.
 */
async function tracedSandbox(
  otlpUrl: string,
  batchDelayMs = 50,
): Promise<{ child: ChildProcess; url: string }> {
  const port = await closedPort();
  const child = spawn(
    process.execPath,
    ['--import', './sandbox/dist/tracing/register.js', 'sandbox/dist/main.js', `--port=${port}`],
    {
      cwd: ROOT,
      env: {
        PATH: process.env.PATH,
        OPERATIONS_API_KEY: API_KEY,
        OTEL_EXPORTER_OTLP_ENDPOINT: otlpUrl,
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
        OTEL_BSP_SCHEDULE_DELAY: String(batchDelayMs),
        OTEL_SERVICE_NAME: 'sandbox',
      },
      stdio: 'ignore',
    },
  );
  const url = `http://127.0.0.1:${port}`;
  await waitUntil(
    async () =>
      (await statusOf(`${url}/control/clock`, { headers: { 'x-api-key': API_KEY } }).catch(() => null)) ===
      200,
    30_000,
  );
  return { child, url };
}

const close = (server: Server) => new Promise<void>((resolve) => server.close(() => resolve()));

/**
 * The built service started as `npm start` starts it, on PostgreSQL and Redis, exporting to an
 * OTLP/HTTP receiver in this test: the trees its requests and deliveries make, and its log lines.
 */
((await canRun()) ? describe : describe.skip)(SUITE, () => {
  const username = `tracing-${randomBytes(4).toString('hex')}`;
  const logLines: Array<{ trace_id?: string; span_id?: string; route?: string }> = [];
  let receiver: OtlpReceiver;
  let sandbox: Awaited<ReturnType<typeof tracedSandbox>>;
  let database: TestDatabase;
  let service: ChildProcess;
  let baseUrl: string;
  let token: string;

  const node = (args: string[], env: Record<string, string>, input?: string) =>
    execFileSync(process.execPath, args, {
      cwd: ROOT,
      env: { PATH: process.env.PATH, ...env },
      input,
      stdio: 'pipe',
    });

  const api = (path: string, init: RequestInit = {}) =>
    fetch(`${baseUrl}${path}`, {
      ...init,
      headers: { authorization: `Bearer ${token}`, ...(init.headers as Record<string, string>) },
    });

  /** The spans of a trace once `complete` says they have all arrived. */
  async function traceOf(
    traceId: string,
    complete: (spans: ReceivedSpan[]) => boolean,
  ): Promise<ReceivedSpan[]> {
    await waitUntil(() => Promise.resolve(complete(receiver.trace(traceId))), 10_000);
    return receiver.trace(traceId);
  }

  beforeAll(async () => {
    // Builds dist/ only when it is missing or older than the sources (as `npm start` does).
    node(['scripts/build-if-stale.mjs'], {});
    receiver = await OtlpReceiver.start();
    sandbox = await tracedSandbox(receiver.url);
    database = await createTestDatabase('postgres');
    const env = {
      NODE_ENV: 'test',
      DATABASE_URL: database.options.url!,
      REDIS_URL: process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379',
      OPERATIONS_BASE_URL: sandbox.url,
      OPERATIONS_API_KEY: API_KEY,
      // Every detail asks the operations system (the Redis cache is shared with earlier runs).
      OPERATIONS_CACHE_TTL_S: '0',
      WEBHOOK_ALLOW_HTTP: 'true',
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
      LOG_LEVEL: 'info',
    };
    const port = await closedPort();
    baseUrl = `http://127.0.0.1:${port}`;
    service = spawn(process.execPath, ['--import', './dist/tracing/register.js', 'dist/main.js'], {
      cwd: ROOT,
      env: {
        PATH: process.env.PATH,
        ...env,
        PORT: String(port),
        OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
        OTEL_BSP_SCHEDULE_DELAY: '50',
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    service.stdout!.on('data', (chunk: Buffer) => {
      for (const line of chunk.toString().split('\n').filter(Boolean))
        logLines.push(JSON.parse(line) as never);
    });
    // A customer's user can be added once the first sync brought the customer in.
    await waitUntil(() => {
      try {
        node(
          ['dist/cli/users.js', 'add', username, '--role', 'customer', '--customers', 'acme'],
          env,
          `${PASSWORD}\n`,
        );
        return Promise.resolve(true);
      } catch {
        return Promise.resolve(false);
      }
    }, 60_000);
    await waitUntil(async () => {
      const login = await fetch(`${baseUrl}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username, password: PASSWORD }),
      }).catch(() => null);
      if (login?.status !== 200) return false;
      token = ((await login.json()) as { accessToken: string }).accessToken;
      return true;
    }, 30_000);
  }, 200_000);

  afterAll(async () => {
    if (service !== undefined) {
      const exited = new Promise((resolve) => service.once('exit', resolve));
      service.kill('SIGTERM');
      await exited;
    }
    await database?.drop();
    await receiver?.close();
    if (sandbox !== undefined) {
      const exited = new Promise((resolve) => sandbox.child.once('exit', resolve));
      sandbox.child.kill('SIGTERM');
      await exited;
    }
  });

  it('continues a request’s traceparent in a span named by route template, its statements and commands as children', async () => {
    const traceId = randomBytes(16).toString('hex');
    const callerSpanId = randomBytes(8).toString('hex');

    const response = await api('/api/processes?pageSize=5', {
      headers: { traceparent: `00-${traceId}-${callerSpanId}-01` },
    });
    expect(response.status).toBe(200);

    const spans = await traceOf(traceId, (received) =>
      received.some((span) => span.kind === SPAN_KIND.server),
    );
    const request = spans.find((span) => span.kind === SPAN_KIND.server)!;
    expect(request).toMatchObject({
      name: 'GET /api/processes',
      parentSpanId: callerSpanId,
      service: 'process-lookup',
      attributes: expect.objectContaining({
        'http.route': '/api/processes',
        'http.request.method': 'GET',
        'http.response.status_code': 200,
      }) as unknown,
    });
    const childrenOf = (parent: ReceivedSpan) => spans.filter((span) => span.parentSpanId === parent.spanId);
    const statements = childrenOf(request).filter(
      (span) => span.attributes['db.system.name'] === 'postgresql',
    );
    expect(statements.length).toBeGreaterThan(0);
    expect(statements.every((span) => span.kind === SPAN_KIND.client)).toBe(true);
    expect(childrenOf(request).some((span) => span.attributes['db.system.name'] === 'redis')).toBe(true);
    // Nothing of the request escaped into a trace of its own.
    expect(spans.every((span) => span.spanId === request.spanId || span.parentSpanId !== '')).toBe(true);
  });

  it('puts trace_id and span_id in the request’s log line', async () => {
    const traceId = randomBytes(16).toString('hex');

    await api('/api/processes?pageSize=1', {
      headers: { traceparent: `00-${traceId}-${randomBytes(8).toString('hex')}-01` },
    });

    const spans = await traceOf(traceId, (received) =>
      received.some((span) => span.kind === SPAN_KIND.server),
    );
    const request = spans.find((span) => span.kind === SPAN_KIND.server)!;
    await waitUntil(() => Promise.resolve(logLines.some((line) => line.trace_id === traceId)));
    expect(logLines.find((line) => line.trace_id === traceId)).toMatchObject({
      route: '/api/processes',
      span_id: request.spanId,
    });
  });

  it('passes the trace on to the operations system, which continues it under the span of the call', async () => {
    const [first] = (
      (await (await api('/api/processes?pageSize=1')).json()) as { data: Array<{ numero: string }> }
    ).data;
    const traceId = randomBytes(16).toString('hex');

    const response = await api(`/api/processes/${first!.numero}`, {
      headers: { traceparent: `00-${traceId}-${randomBytes(8).toString('hex')}-01` },
    });
    expect(response.status).toBe(200);

    // Each side exports its spans on its own schedule.
    const spans = await traceOf(
      traceId,
      (received) =>
        received.some((span) => span.service === 'sandbox' && span.kind === SPAN_KIND.server) &&
        received.some((span) => span.service === 'process-lookup' && span.kind === SPAN_KIND.server),
    );
    const upstream = spans.find((span) => span.service === 'sandbox' && span.kind === SPAN_KIND.server)!;
    const call = spans.find((span) => span.spanId === upstream.parentSpanId)!;
    expect(call).toMatchObject({ service: 'process-lookup', kind: SPAN_KIND.client });
    expect(call.attributes['url.full']).toContain(`/processes/${first!.numero}`);
    const request = spans.find(
      (span) => span.service === 'process-lookup' && span.kind === SPAN_KIND.server,
    )!;
    expect(request.name).toBe('GET /api/processes/:numero');
    // The call is inside the request's tree.
    const ancestors = (span: ReceivedSpan): string[] => {
      const parent = spans.find((each) => each.spanId === span.parentSpanId);
      return parent === undefined ? [] : [parent.spanId, ...ancestors(parent)];
    };
    expect(ancestors(call)).toContain(request.spanId);
  });

  it('traces each webhook delivery attempt and sends the receiver its traceparent', async () => {
    const endpoint = await recordingServer();
    try {
      const created = await api('/api/webhooks', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          url: `${endpoint.url}/hook`,
          since: new Date(Date.now() - 3_600_000).toISOString(),
        }),
      });
      expect(created.status).toBe(201);

      await waitUntil(() => Promise.resolve(endpoint.received.length > 0), 20_000);
      const [, traceId, parent] = TRACEPARENT.exec(String(endpoint.received[0]!.traceparent)) ?? [];
      expect(traceId).toBeDefined();
      const spans = await traceOf(traceId!, (received) => received.some((span) => span.spanId === parent));
      const post = spans.find((span) => span.spanId === parent)!;
      expect(post.kind).toBe(SPAN_KIND.client);
      const attempt = spans.find((span) => span.spanId === post.parentSpanId);
      expect(attempt).toMatchObject({
        name: 'webhook delivery attempt',
        attributes: expect.objectContaining({
          'webhook.message_id': endpoint.received[0]!['webhook-id'],
        }) as unknown,
      });
    } finally {
      await close(endpoint.server);
    }
  });
});

/** The `--import` module `npm start` loads before the service, with and without an endpoint. */
describe('Tracing set-up', () => {
  /** Where the OpenTelemetry API keeps the providers an SDK registers. */
  const SDK_REGISTERED = `typeof globalThis[Symbol.for('opentelemetry.js.api.1')]?.trace`;

  const afterRegister = (env: Record<string, string>): string =>
    execFileSync(
      process.execPath,
      [
        '--import',
        './dist/tracing/register.js',
        '--input-type=module',
        '-e',
        `console.log(${SDK_REGISTERED})`,
      ],
      { cwd: ROOT, env: { PATH: process.env.PATH, ...env }, stdio: 'pipe' },
    )
      .toString()
      .trim();

  beforeAll(() => {
    execFileSync(process.execPath, ['scripts/build-if-stale.mjs'], { cwd: ROOT, stdio: 'pipe' });
  }, 200_000);

  it('starts no SDK without OTEL_EXPORTER_OTLP_ENDPOINT', () => {
    expect(afterRegister({})).toBe('undefined');
  });

  it('starts the SDK before the service’s modules load when OTEL_EXPORTER_OTLP_ENDPOINT is set', () => {
    expect(afterRegister({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:9' })).toBe('object');
  });

  it('exports the spans its batch still holds before a shut-down service exits', async () => {
    const receiver = await OtlpReceiver.start();
    try {
      // A batch that would wait a minute: only the exit hooks (what graceful shutdown runs last) send it.
      const traceId = await new Promise<string>((resolve, reject) => {
        const child = spawn(
          process.execPath,
          [
            '--import',
            './dist/tracing/register.js',
            '--input-type=module',
            '-e',
            `import { trace } from '@opentelemetry/api';
             import { runExitHooks } from './dist/lifecycle/exit-hooks.js';
             const span = trace.getTracer('test').startSpan('the last request');
             span.end();
             await runExitHooks();
             console.log(span.spanContext().traceId);`,
          ],
          {
            cwd: ROOT,
            env: {
              PATH: process.env.PATH,
              OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
              OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
              OTEL_BSP_SCHEDULE_DELAY: '60000',
            },
            stdio: ['ignore', 'pipe', 'inherit'],
          },
        );
        let output = '';
        child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
        child.once('error', reject);
        child.once('exit', (code) =>
          code === 0 ? resolve(output.trim()) : reject(new Error(`exit ${code}`)),
        );
      });

      expect(receiver.trace(traceId).map((span) => span.name)).toEqual(['the last request']);
    } finally {
      await receiver.close();
    }
  });

  it('exports the spans the sandbox’s batch still holds when it is stopped', async () => {
    const receiver = await OtlpReceiver.start();
    try {
      // The calls that found it ready are traced; a batch that would wait a minute goes out only on exit.
      const { child } = await tracedSandbox(receiver.url, 60_000);
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      expect(await exited).toBe(0);

      const answered = receiver.spans.filter(
        (span) => span.service === 'sandbox' && span.kind === SPAN_KIND.server,
      );
      expect(answered.length).toBeGreaterThan(0);
    } finally {
      await receiver.close();
    }
  });
});
