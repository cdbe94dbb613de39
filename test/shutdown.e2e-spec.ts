import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { Agent, get } from 'node:http';
import { connect } from 'node:net';
import { fileURLToPath } from 'node:url';
import { closedPort } from '../src/testing/closed-port.js';
import { createTestDatabase, type TestDatabase } from '../src/testing/test-database.js';
import { startTestSandbox, type TestSandbox } from './support/sandbox.js';
import { SseClient } from './support/sse-client.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const API_KEY = 'shutdown-test-key-5e2a';
const UPSTREAM_LATENCY_MS = 3000;
const GRACE_MS = 1500;

interface KeepAliveAnswer {
  at: number;
  status: number | null;
  connection: string | undefined;
  error: string | null;
}

/**
 * A client on keep-alive connections, as a load balancer or a busy portal is: GETs back to back on
 * `connections` sockets, each loop stopping when the service asks it to close its connection (it
 * would go to another instance) or a request fails.
 */
async function keepAliveLoad(url: string, connections: number, answers: KeepAliveAnswer[]): Promise<void> {
  const agent = new Agent({ keepAlive: true, maxSockets: connections });
  const one = () =>
    new Promise<KeepAliveAnswer>((resolve) => {
      const request = get(url, { agent, timeout: 5000 }, (response) => {
        response.resume();
        response.on('end', () =>
          resolve({
            at: Date.now(),
            status: response.statusCode ?? 0,
            connection: response.headers.connection,
            error: null,
          }),
        );
      });
      request.on('timeout', () => request.destroy(Object.assign(new Error('timeout'), { code: 'TIMEOUT' })));
      request.on('error', (error: NodeJS.ErrnoException) =>
        resolve({ at: Date.now(), status: null, connection: undefined, error: error.code ?? error.message }),
      );
    });
  await Promise.all(
    Array.from({ length: connections }, async () => {
      for (;;) {
        const answer = await one();
        answers.push(answer);
        if (answer.error !== null || answer.connection === 'close') return;
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    }),
  );
  agent.destroy();
}

/** One GET on a fresh connection: its status, or the connection error code (ECONNREFUSED...). */
function probe(url: string): Promise<number | string> {
  return new Promise((resolve) => {
    const request = get(url, { agent: false, timeout: 2000 }, (response) => {
      response.resume();
      resolve(response.statusCode ?? 0);
    });
    request.on('timeout', () => request.destroy(new Error('timeout')));
    request.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
  });
}

async function until<T>(what: string, attempt: () => Promise<T>, done: (value: T) => boolean, ms: number) {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await attempt();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`${what}: still ${String(value)} after ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * The built service (`node dist/main.js`) in demo mode on a migrated PGlite, reading a simulator
 * that answers slowly: SIGTERM while a detail request waits upstream.
 */
describe('Graceful shutdown', () => {
  let sandbox: TestSandbox;
  let simulator: TestSandbox['server'];
  let database: TestDatabase;
  let service: ChildProcess;
  let baseUrl: string;
  let exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  const output: string[] = [];

  beforeAll(async () => {
    // Builds dist/ only when it is missing or older than the sources (as `npm start` does).
    execFileSync(process.execPath, ['scripts/build-if-stale.mjs'], {
      cwd: ROOT,
      stdio: 'pipe',
      timeout: 180_000,
    });
    sandbox = await startTestSandbox({ apiKey: API_KEY });
    simulator = sandbox.server;
    database = await createTestDatabase('pglite');
    const port = await closedPort();
    baseUrl = `http://127.0.0.1:${port}`;
    service = spawn(process.execPath, ['dist/main.js'], {
      cwd: ROOT,
      env: serviceEnvironment(port, simulator.url, {
        PGLITE_DIR: database.options.pgliteDir,
        OPERATIONS_TIMEOUT_MS: '8000',
        SHUTDOWN_GRACE_MS: String(GRACE_MS),
        LOG_LEVEL: 'info',
      }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    service.stdout?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
    service.stderr?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
    exited = new Promise((resolve) => service.once('exit', (code, signal) => resolve({ code, signal })));
    // Demo mode: ready once the first sync from the simulator and the demo users are done.
    await until(
      'readiness',
      () => probe(`${baseUrl}/health/ready`),
      (status) => status === 200,
      90_000,
    );
  }, 240_000);

  afterAll(async () => {
    if (service !== undefined && service.exitCode === null && service.signalCode === null) {
      service.kill('SIGKILL');
      await exited;
    }
    await simulator?.close();
    await database?.drop();
  });

  it('drains: keeps accepting for the grace period with Connection: close, finishes the request in flight, resets no keep-alive client, ends the change streams, exits 0', async () => {
    try {
      const login = await fetch(`${baseUrl}/api/auth/login`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ username: 'acme', password: 'acme-demo-2026' }),
      });
      const { accessToken } = (await login.json()) as { accessToken: string };
      const headers = { Authorization: `Bearer ${accessToken}` };
      const list = (await (await fetch(`${baseUrl}/api/processes?pageSize=1`, { headers })).json()) as {
        data: Array<{ numero: string }>;
      };
      simulator.setFaults({ latencyMs: UPSTREAM_LATENCY_MS });

      const slow = fetch(`${baseUrl}/api/processes/${list.data[0]?.numero}`, { headers });
      let slowAnswered = false;
      // Awaited below; no unhandled rejection if an assertion fails first.
      slow.then(() => (slowAnswered = true)).catch(() => undefined);
      const before = simulator.requestCount;
      await until(
        'the detail call upstream',
        () => Promise.resolve(simulator.requestCount),
        (count) => count > before,
        5000,
      );
      // A portal following the change stream, with fetch (which keeps a spare connection open).
      const stream = await SseClient.open(`${baseUrl}/api/changes/stream`, headers);
      expect(stream.response.status).toBe(200);
      // And a client that connected and never sent a request (a preconnect, a TCP health check),
      // which Node does not count as idle.
      const silent = connect(Number(new URL(baseUrl).port), '127.0.0.1');
      silent.on('error', () => undefined);
      const answers: KeepAliveAnswer[] = [];
      const load = keepAliveLoad(`${baseUrl}/health/live`, 4, answers);
      await new Promise((resolve) => setTimeout(resolve, 300));
      const signalled = Date.now();
      // The detail call is still waiting for the operations system when the signal comes.
      expect(slowAnswered).toBe(false);
      service.kill('SIGTERM');

      // Readiness turns 503 at once while the listener still accepts, so a balancer moves traffic.
      const notReady = await until(
        'readiness after SIGTERM',
        () => probe(`${baseUrl}/health/ready`),
        (s) => s !== 200,
        1000,
      );
      expect(notReady).toBe(503);
      await until(
        'new connections refused',
        () => probe(`${baseUrl}/health/live`),
        (s) => s === 'ECONNREFUSED',
        5000,
      );

      const detail = await slow;
      expect(detail.status).toBe(200);
      expect(((await detail.json()) as { enrichment: { status: string } }).enrichment.status).toBe('FRESH');

      const { code, signal } = await exited;
      expect({ code, signal }).toEqual({ code: 0, signal: null });
      // The stream was ended, not cut: the reader saw its end and can resume by Last-Event-ID.
      await stream.waitForClose(1000);

      await load;
      // No request on a keep-alive connection was reset: each was answered, the first after the
      // signal with Connection: close, and the client left.
      expect(answers.filter((answer) => answer.error !== null)).toEqual([]);
      const closing = answers.filter((answer) => answer.connection === 'close');
      expect(closing).toHaveLength(4);
      for (const answer of closing) {
        expect(answer.status).toBe(200);
        expect(answer.at).toBeGreaterThanOrEqual(signalled);
      }
      expect(answers.filter((answer) => answer.at < signalled).length).toBeGreaterThan(4);
    } catch (error) {
      // What the service said is the best clue when this fails in CI.
      console.error(output.join('').slice(-5000));
      throw error;
    }
  }, 30_000);
});

/** How many shutdowns the load test below makes (`SHUTDOWN_RUNS=50` to measure more). */
const SHUTDOWN_RUNS = Number(process.env.SHUTDOWN_RUNS ?? 3);

/** How each request a client sent ended: every one is a 2xx, a 503 or a refused connection. */
interface LoadFigures {
  succeeded: number;
  refusedWith503: number;
  connectionsRefused: number;
  /** Anything else: a reset, a timeout, another status. */
  failures: string[];
}

/**
 * Clients with nowhere else to go, sending GETs back to back until they find nobody listening:
 * `keepAlive` of them on keep-alive connections (told to close one, or refused with a 503, a
 * client opens a new one at once), `fresh` others on a new connection for each request.
 */
async function reconnectingLoad(
  url: string,
  clients: { keepAlive: number; fresh: number },
  figures: LoadFigures,
): Promise<void> {
  const agent = new Agent({ keepAlive: true, maxSockets: clients.keepAlive });
  const one = (viaAgent: Agent | false) =>
    new Promise<'go on' | 'stop'>((resolve) => {
      const request = get(url, { agent: viaAgent, timeout: 5000 }, (response) => {
        response.resume();
        response.on('end', () => {
          const status = response.statusCode ?? 0;
          if (status >= 200 && status < 300) figures.succeeded++;
          else if (status === 503) figures.refusedWith503++;
          else figures.failures.push(`status ${status}`);
          resolve('go on');
        });
      });
      request.on('timeout', () => request.destroy(Object.assign(new Error('timeout'), { code: 'TIMEOUT' })));
      request.on('error', (error: NodeJS.ErrnoException) => {
        if (error.code === 'ECONNREFUSED') {
          figures.connectionsRefused++;
          return resolve('stop');
        }
        figures.failures.push(error.code ?? error.message);
        resolve('go on');
      });
    });
  const client = async (viaAgent: Agent | false) => {
    let next: 'go on' | 'stop';
    do next = await one(viaAgent);
    while (next === 'go on');
  };
  await Promise.all([
    ...Array.from({ length: clients.keepAlive }, () => client(agent)),
    ...Array.from({ length: clients.fresh }, () => client(false)),
  ]);
  agent.destroy();
}

describe('Graceful shutdown under keep-alive load', () => {
  let sandbox: TestSandbox;
  let simulator: TestSandbox['server'];
  /**
   * One migrated data directory for every run, each starting after the last has exited: only the
   * first seeds the demo, so a run costs a start-up, not a new database.
   */
  let database: TestDatabase;

  beforeAll(async () => {
    execFileSync(process.execPath, ['scripts/build-if-stale.mjs'], {
      cwd: ROOT,
      stdio: 'pipe',
      timeout: 180_000,
    });
    sandbox = await startTestSandbox({ apiKey: API_KEY });
    simulator = sandbox.server;
    database = await createTestDatabase('pglite');
  }, 200_000);

  afterAll(async () => {
    await simulator?.close();
    await database?.drop();
  });

  it(
    `answers (2xx or 503) or refuses the connection of every request sent, never resets one, over ${SHUTDOWN_RUNS} SIGTERM(s) of 16 clients reconnecting at once and 3 change streams`,
    async () => {
      const failures: string[][] = [];
      for (let run = 0; run < SHUTDOWN_RUNS; run++) {
        const port = await closedPort();
        const baseUrl = `http://127.0.0.1:${port}`;
        const output: string[] = [];
        const service = spawn(process.execPath, ['dist/main.js'], {
          cwd: ROOT,
          env: serviceEnvironment(port, simulator.url, {
            PGLITE_DIR: database.options.pgliteDir,
            SHUTDOWN_GRACE_MS: '1000',
            LOG_LEVEL: 'warn',
          }),
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        service.stdout?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
        service.stderr?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
        const exited = new Promise<number | null>((resolve) => service.once('exit', (code) => resolve(code)));
        try {
          await until(
            'readiness',
            () => probe(`${baseUrl}/health/ready`),
            (status) => status === 200,
            90_000,
          );
          const login = await fetch(`${baseUrl}/api/auth/login`, {
            method: 'POST',
            headers: { 'Content-Type': 'application/json' },
            body: JSON.stringify({ username: 'acme', password: 'acme-demo-2026' }),
          });
          const { accessToken } = (await login.json()) as { accessToken: string };
          const streams = await Promise.all(
            Array.from({ length: 3 }, () =>
              SseClient.open(`${baseUrl}/api/changes/stream`, { Authorization: `Bearer ${accessToken}` }),
            ),
          );
          const figures: LoadFigures = {
            succeeded: 0,
            refusedWith503: 0,
            connectionsRefused: 0,
            failures: [],
          };
          const load = reconnectingLoad(`${baseUrl}/health/live`, { keepAlive: 12, fresh: 4 }, figures);
          await new Promise((resolve) => setTimeout(resolve, 300));
          service.kill('SIGTERM');

          expect(await exited).toBe(0);
          await load;
          for (const stream of streams) await stream.waitForClose(1000);
          process.stdout.write(
            `shutdown ${run + 1}/${SHUTDOWN_RUNS}: ${figures.succeeded} 2xx, ${figures.refusedWith503} 503, ${figures.connectionsRefused} connections refused, ${figures.failures.length} failed (${figures.failures.join(', ')})\n`,
          );
          // Every client ran until it found nobody listening.
          expect(figures.connectionsRefused).toBe(16);
          failures.push(figures.failures);
        } catch (error) {
          console.error(output.join('').slice(-5000));
          throw error;
        } finally {
          if (service.exitCode === null && service.signalCode === null) service.kill('SIGKILL');
        }
      }
      expect(failures).toEqual(failures.map(() => []));
    },
    120_000 * SHUTDOWN_RUNS,
  );
});

/**
 * The built service's environment: only what a test decides (no DATABASE_URL or REDIS_URL from
 * the surrounding one), on the PGlite data directory `extra` names, against the simulator, with no
 * background sync.
 */
function serviceEnvironment(
  port: number,
  simulatorUrl: string,
  extra: Record<string, string> & { PGLITE_DIR: string },
): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    NODE_ENV: 'development',
    PORT: String(port),
    JWT_SECRET: 'shutdown-test-secret-that-is-long-enough-0123456789',
    OPERATIONS_BASE_URL: simulatorUrl,
    OPERATIONS_API_KEY: API_KEY,
    SYNC_INTERVAL_S: '0',
    ...extra,
  };
}
