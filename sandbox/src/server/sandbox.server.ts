import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Sandbox } from '../control/sandbox.js';
import type { SandboxClock } from '../control/sandbox-clock.js';
import { InvalidQueryError } from '../simulation/operations-simulator.js';
import { Rng } from '../simulation/prng.js';
import { handleControl } from './control.routes.js';
import { readBody } from './json-body.js';

/**
 * The sandbox's HTTP server, deliberately plain `node:http`:
 *
 * - the operations system's upstream API: `GET /processes?updatedSince=&cursor=&limit=` →
 *   `{ items, nextCursor }`, `GET /processes/{numero}` → the detail, or 404; faults apply here only;
 * - the control API under `/control/` (see control.routes.ts), for tests and demos;
 * - `/_sim/faults` (GET, PUT a partial, DELETE to reset) and `/_sim/stats` (GET): every fault knob
 *   and the request counts, for resilience tests and benchmarks.
 *
 * Every request needs `X-Api-Key`, else 401. Control and `/_sim/` requests never fault and are not
 * counted as upstream requests.
 */

export type OutageMode = 'off' | 'reset' | 'unavailable';
export type GarbageKind = 'invalid-json' | 'wrong-shape' | 'html' | 'mixed';

export interface SimulatorFaults {
  /** Added before every answer (outages excepted). */
  latencyMs: number;
  /** Up to this much more, at random. */
  jitterMs: number;
  /** Fractions of requests (0..1), checked in this order after the API key. */
  timeoutRate: number;
  errorRate: number;
  redirectRate: number;
  oversizedRate: number;
  garbageRate: number;
  /** `reset` destroys every connection at once; `unavailable` answers 503 to everything. */
  outage: OutageMode;
  redirectLocation: string;
  oversizedBytes: number;
  garbageKind: GarbageKind;
}

export const NO_FAULTS: Readonly<SimulatorFaults> = {
  latencyMs: 0,
  jitterMs: 0,
  timeoutRate: 0,
  errorRate: 0,
  redirectRate: 0,
  oversizedRate: 0,
  garbageRate: 0,
  outage: 'off',
  // Where an SSRF would hurt: a client that follows redirects blindly ends up here.
  redirectLocation: 'http://169.254.169.254/latest/meta-data/',
  oversizedBytes: 16 * 1024 * 1024,
  garbageKind: 'mixed',
};

export type RequestOutcome =
  | 'ok'
  | 'badRequest'
  | 'unauthorized'
  | 'notFound'
  | 'methodNotAllowed'
  | 'timeout'
  | 'error'
  | 'redirect'
  | 'oversized'
  | 'garbage'
  | 'reset'
  | 'unavailable';

export interface SimulatorStats {
  /** Upstream API requests received (admin routes excluded), whatever became of them. */
  requests: number;
  byOutcome: Record<RequestOutcome, number>;
}

export interface SandboxServerOptions {
  sandbox: Sandbox;
  clock: SandboxClock;
  /** Called after the control API moved the clock. */
  onClockMoved?: () => void;
  apiKey: string;
  /** 0 (the default) picks a free port. */
  port?: number;
  host?: string;
  faults?: Partial<SimulatorFaults>;
  /** Seeds the fault dice, so a test with rates between 0 and 1 is repeatable. */
  faultSeed?: number;
}

export interface SandboxServer {
  url: string;
  port: number;
  sandbox: Sandbox;
  readonly requestCount: number;
  stats(): SimulatorStats;
  faults(): SimulatorFaults;
  setFaults(partial: Partial<SimulatorFaults>): void;
  resetFaults(): void;
  /** Stops listening and drops every connection, hanging ones included. */
  close(): Promise<void>;
}

const DEFAULT_LIMIT = 100;

export function validateFaults(partial: Partial<SimulatorFaults>, base: SimulatorFaults): SimulatorFaults {
  const faults = { ...base, ...partial };
  for (const key of ['latencyMs', 'jitterMs', 'oversizedBytes'] as const) {
    if (!Number.isFinite(faults[key]) || faults[key] < 0) {
      throw new RangeError(`${key} must be a non-negative number`);
    }
  }
  for (const key of ['timeoutRate', 'errorRate', 'redirectRate', 'oversizedRate', 'garbageRate'] as const) {
    if (!(faults[key] >= 0 && faults[key] <= 1)) {
      throw new RangeError(`${key} must be between 0 and 1`);
    }
  }
  if (!['off', 'reset', 'unavailable'].includes(faults.outage)) {
    throw new RangeError('outage must be off, reset or unavailable');
  }
  if (!['invalid-json', 'wrong-shape', 'html', 'mixed'].includes(faults.garbageKind)) {
    throw new RangeError('garbageKind must be invalid-json, wrong-shape, html or mixed');
  }
  if (typeof faults.redirectLocation !== 'string' || faults.redirectLocation === '') {
    throw new RangeError('redirectLocation must be a URL');
  }
  return faults;
}

function emptyOutcomes(): Record<RequestOutcome, number> {
  return {
    ok: 0,
    badRequest: 0,
    unauthorized: 0,
    notFound: 0,
    methodNotAllowed: 0,
    timeout: 0,
    error: 0,
    redirect: 0,
    oversized: 0,
    garbage: 0,
    reset: 0,
    unavailable: 0,
  };
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}

export async function startSandboxServer(options: SandboxServerOptions): Promise<SandboxServer> {
  if (options.apiKey === '') {
    throw new RangeError('apiKey must not be empty');
  }
  const { sandbox } = options;
  const expectedKey = digest(options.apiKey);
  const dice = new Rng(options.faultSeed ?? 1);
  let faults = validateFaults(options.faults ?? {}, NO_FAULTS);
  const stats: SimulatorStats = { requests: 0, byOutcome: emptyOutcomes() };
  const timers = new Set<NodeJS.Timeout>();

  const sleep = (ms: number): Promise<void> =>
    new Promise((resolve) => {
      const timer = setTimeout(() => {
        timers.delete(timer);
        resolve();
      }, ms);
      timers.add(timer);
    });

  const send = (
    res: ServerResponse,
    outcome: RequestOutcome,
    status: number,
    body: unknown,
    headers: Record<string, string> = {},
  ): void => {
    stats.byOutcome[outcome]++;
    if (res.destroyed) return;
    const text = JSON.stringify(body);
    res.writeHead(status, {
      'Content-Type': 'application/json; charset=utf-8',
      'Content-Length': Buffer.byteLength(text),
      ...headers,
    });
    res.end(text);
  };

  const authorized = (req: IncomingMessage): boolean => {
    const key = req.headers['x-api-key'];
    return typeof key === 'string' && timingSafeEqual(digest(key), expectedKey);
  };

  const handleApi = async (req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> => {
    stats.requests++;
    const current = faults;
    if (current.outage === 'reset') {
      stats.byOutcome.reset++;
      req.socket.destroy();
      return;
    }
    if (current.outage === 'unavailable') {
      send(
        res,
        'unavailable',
        503,
        { error: 'unavailable', message: 'Service unavailable' },
        { 'Retry-After': '5' },
      );
      return;
    }
    const delay = current.latencyMs + current.jitterMs * dice.next();
    if (delay > 0) {
      await sleep(delay);
    }
    if (!authorized(req)) {
      send(res, 'unauthorized', 401, {
        error: 'unauthorized',
        message: 'A valid X-Api-Key header is required',
      });
      return;
    }
    if (dice.chance(current.timeoutRate)) {
      // Never answer: the client's own timeout is what is being tested.
      stats.byOutcome.timeout++;
      return;
    }
    if (dice.chance(current.errorRate)) {
      const status = dice.chance(0.5) ? 500 : 503;
      send(res, 'error', status, { error: status === 500 ? 'internal' : 'unavailable' });
      return;
    }
    if (dice.chance(current.redirectRate)) {
      stats.byOutcome.redirect++;
      res.writeHead(302, { Location: current.redirectLocation, 'Content-Length': 0 });
      res.end();
      return;
    }
    if (dice.chance(current.oversizedRate)) {
      stats.byOutcome.oversized++;
      await sendOversized(res, current.oversizedBytes);
      return;
    }
    if (dice.chance(current.garbageRate)) {
      stats.byOutcome.garbage++;
      sendGarbage(res, current.garbageKind === 'mixed' ? dice.pick(GARBAGE_KINDS) : current.garbageKind);
      return;
    }
    route(req, res, url);
  };

  const route = (req: IncomingMessage, res: ServerResponse, url: URL): void => {
    const detailMatch = /^\/processes\/([^/]+)$/.exec(url.pathname);
    if (url.pathname !== '/processes' && detailMatch === null) {
      send(res, 'notFound', 404, { error: 'not_found', message: 'No such route' });
      return;
    }
    if (req.method !== 'GET') {
      send(res, 'methodNotAllowed', 405, { error: 'method_not_allowed' }, { Allow: 'GET' });
      return;
    }
    if (detailMatch !== null) {
      let numero: string;
      try {
        numero = decodeURIComponent(detailMatch[1] ?? '');
      } catch {
        send(res, 'badRequest', 400, {
          error: 'bad_request',
          message: 'numero is not valid percent-encoding',
        });
        return;
      }
      const detail = sandbox.getProcessDetail(numero);
      if (detail === null) {
        send(res, 'notFound', 404, { error: 'not_found', message: 'Unknown process' });
      } else {
        send(res, 'ok', 200, detail);
      }
      return;
    }
    const limitText = url.searchParams.get('limit');
    const limit =
      limitText === null || limitText === ''
        ? DEFAULT_LIMIT
        : /^\d{1,7}$/.test(limitText)
          ? Number(limitText)
          : NaN;
    const updatedSince = url.searchParams.get('updatedSince');
    const cursor = url.searchParams.get('cursor');
    try {
      const page = sandbox.listChangedProcesses({
        updatedSince: updatedSince === null || updatedSince === '' ? null : updatedSince,
        cursor: cursor === null || cursor === '' ? null : cursor,
        limit,
      });
      send(res, 'ok', 200, page);
    } catch (error) {
      if (!(error instanceof InvalidQueryError)) throw error;
      send(res, 'badRequest', 400, {
        error: 'bad_request',
        parameter: error.parameter,
        message: error.message,
      });
    }
  };

  const handleAdmin = async (req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> => {
    const reply = (status: number, body: unknown): void => {
      res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8' });
      res.end(JSON.stringify(body));
    };
    if (!authorized(req)) {
      reply(401, { error: 'unauthorized' });
      return;
    }
    if (url.pathname === '/_sim/stats' && req.method === 'GET') {
      reply(200, stats);
      return;
    }
    if (url.pathname !== '/_sim/faults') {
      reply(404, { error: 'not_found' });
      return;
    }
    if (req.method === 'GET') {
      reply(200, faults);
    } else if (req.method === 'DELETE') {
      faults = { ...NO_FAULTS };
      reply(200, faults);
    } else if (req.method === 'PUT') {
      try {
        faults = validateFaults((await readBody(req)) as Partial<SimulatorFaults>, faults);
        reply(200, faults);
      } catch (error) {
        reply(400, {
          error: 'bad_request',
          message: error instanceof Error ? error.message : 'invalid body',
        });
      }
    } else {
      reply(405, { error: 'method_not_allowed' });
    }
  };

  let faultsEnd: NodeJS.Timeout | undefined;
  const faultControl = {
    set: (partial: Partial<SimulatorFaults>, seconds?: number): SimulatorFaults => {
      clearTimeout(faultsEnd);
      faults = validateFaults(partial, NO_FAULTS);
      if (seconds !== undefined) {
        faultsEnd = setTimeout(() => (faults = { ...NO_FAULTS }), seconds * 1000);
        faultsEnd.unref();
      }
      return { ...faults };
    },
    clear: (): SimulatorFaults => {
      clearTimeout(faultsEnd);
      faults = { ...NO_FAULTS };
      return { ...faults };
    },
  };
  const controlContext = {
    sandbox,
    clock: options.clock,
    faults: faultControl,
    clockMoved: options.onClockMoved ?? (() => undefined),
  };

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://sandbox.invalid');
    const handled = url.pathname.startsWith('/_sim/')
      ? handleAdmin(req, res, url)
      : url.pathname.startsWith('/control/')
        ? handleControl(req, res, url, { ...controlContext, authorized: authorized(req) })
        : handleApi(req, res, url);
    handled.catch(() => {
      if (!res.headersSent && !res.destroyed) {
        res.writeHead(500, { 'Content-Type': 'application/json; charset=utf-8' });
        res.end(JSON.stringify({ error: 'internal' }));
      }
    });
  });

  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    port,
    sandbox,
    get requestCount() {
      return stats.requests;
    },
    stats: () => ({ requests: stats.requests, byOutcome: { ...stats.byOutcome } }),
    faults: () => ({ ...faults }),
    setFaults: (partial) => {
      faults = validateFaults(partial, faults);
    },
    resetFaults: () => {
      faults = { ...NO_FAULTS };
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        timers.forEach((timer) => clearTimeout(timer));
        timers.clear();
        clearTimeout(faultsEnd);
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

const GARBAGE_KINDS: readonly Exclude<GarbageKind, 'mixed'>[] = ['invalid-json', 'wrong-shape', 'html'];

function sendGarbage(res: ServerResponse, kind: Exclude<GarbageKind, 'mixed'>): void {
  const bodies = {
    'invalid-json': ['application/json', '{"items": [{"numero": "IMP-2026-0'],
    'wrong-shape': ['application/json', '{"items": "none", "nextCursor": 42, "numero": null, "parties": {}}'],
    html: ['text/html', '<html><body><h1>502 Bad Gateway</h1></body></html>'],
  } as const;
  const [contentType, body] = bodies[kind];
  res.writeHead(200, { 'Content-Type': contentType, 'Content-Length': Buffer.byteLength(body) });
  res.end(body);
}

/** A well-formed but huge JSON body, streamed so the client's size limit is what stops it. */
async function sendOversized(res: ServerResponse, bytes: number): Promise<void> {
  res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8' });
  const chunk = 'x'.repeat(64 * 1024);
  res.write('{"items":[],"nextCursor":null,"padding":"');
  for (let written = 0; written < bytes && !res.destroyed; written += chunk.length) {
    if (!res.write(chunk)) {
      await new Promise<void>((resolve) => {
        const done = (): void => {
          res.off('drain', done);
          res.off('close', done);
          resolve();
        };
        res.on('drain', done);
        res.on('close', done);
      });
    }
  }
  if (!res.destroyed) {
    res.end('"}');
  }
}
