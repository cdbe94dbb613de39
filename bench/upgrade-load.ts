import { Agent, request } from 'node:http';
import { performance } from 'node:perf_hooks';

/**
 * The rehearsal's steady load, in its own process so that its CPU is not the orchestrator's (the
 * proxy, the streams, the receiver): `connections` clients, each sending its next request as soon
 * as the previous one is answered, over keep-alive connections, as a portal's backend would.
 * node:http, not autocannon: autocannon sends a request lost with its connection again on a new
 * one without counting it, which is exactly what a rehearsal must count.
 */
export interface LoadStart {
  kind: 'start';
  url: string;
  paths: string[];
  headers: Record<string, string>;
  connections: number;
}

/** Requests sent from here on count in `phase` (the upgrade's, say), for its percentiles. */
export interface LoadPhase {
  kind: 'phase';
  phase: string;
}

export interface LoadStop {
  kind: 'stop';
}

export interface PhaseStats {
  phase: string;
  sent: number;
  answered: number;
  /** Answered with a status other than 2xx or 304. */
  refused: number;
  /** Transport errors, by code (ECONNRESET, ECONNREFUSED, a timeout). */
  errors: Record<string, number>;
  p50: number;
  p99: number;
  max: number;
  /** Statuses of the refused answers, with a sample body each. */
  statuses: Record<string, { count: number; sample: string }>;
}

/** No request waits longer: past it, it is a failure (a timeout), not a slow answer. */
const REQUEST_TIMEOUT_MS = 10_000;

class Phase {
  sent = 0;
  answered = 0;
  refused = 0;
  readonly errors: Record<string, number> = {};
  readonly statuses: Record<string, { count: number; sample: string }> = {};
  readonly latencies: number[] = [];

  constructor(readonly name: string) {}

  stats(): PhaseStats {
    const sorted = [...this.latencies].sort((a, b) => a - b);
    const at = (p: number): number =>
      sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)]!;
    return {
      phase: this.name,
      sent: this.sent,
      answered: this.answered,
      refused: this.refused,
      errors: this.errors,
      p50: at(0.5),
      p99: at(0.99),
      max: sorted.at(-1) ?? 0,
      statuses: this.statuses,
    };
  }
}

let phase = new Phase('before');
const phases = [phase];
let running = false;
const clients: Array<Promise<void>> = [];

function once(url: string, path: string, headers: Record<string, string>, agent: Agent): Promise<void> {
  const counted = phase;
  counted.sent++;
  const started = performance.now();
  return new Promise((resolve) => {
    const fail = (code: string): void => {
      counted.errors[code] = (counted.errors[code] ?? 0) + 1;
      counted.latencies.push(performance.now() - started);
      resolve();
    };
    const req = request(new URL(path, url), { headers, agent, timeout: REQUEST_TIMEOUT_MS }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        if (body.length < 300) body += chunk;
      });
      response.on('error', (error: NodeJS.ErrnoException) => fail(error.code ?? error.message));
      response.on('end', () => {
        counted.latencies.push(performance.now() - started);
        const status = response.statusCode ?? 0;
        counted.answered++;
        if ((status < 200 || status > 299) && status !== 304) {
          counted.refused++;
          const entry = (counted.statuses[String(status)] ??= { count: 0, sample: body.slice(0, 300) });
          entry.count++;
        }
        resolve();
      });
    });
    req.on('timeout', () => req.destroy(Object.assign(new Error('timeout'), { code: 'TIMEOUT' })));
    req.on('error', (error: NodeJS.ErrnoException) => fail(error.code ?? error.message));
    req.end();
  });
}

function start(message: LoadStart): void {
  running = true;
  const agent = new Agent({ keepAlive: true, maxSockets: message.connections });
  let next = 0;
  for (let i = 0; i < message.connections; i++) {
    clients.push(
      (async () => {
        while (running) {
          await once(message.url, message.paths[next++ % message.paths.length]!, message.headers, agent);
        }
      })(),
    );
  }
}

process.on('message', (message: LoadStart | LoadPhase | LoadStop) => {
  if (message.kind === 'start') start(message);
  else if (message.kind === 'phase') {
    phase = new Phase(message.phase);
    phases.push(phase);
  } else {
    running = false;
    void Promise.all(clients).then(() => process.send?.(phases.map((p) => p.stats())));
  }
});
process.on('disconnect', () => process.exit(0));
