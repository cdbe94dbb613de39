import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { BENCH_USERS, type BenchUserKey } from './dataset.js';
import type { DriveResult } from './driver.js';
import { startDriver } from './driver-process.js';
import { cpuPerRequest, median } from './report.js';
import { login, startService, stopService } from './service-process.js';

const USAGE = `Usage: npm run bench:tracing -- --database-url postgres://... [--pairs 3] [--seconds 15]
        [--slice 3] [--warmup 10] [--connections 4] [--user staff|largeCustomer]
        [--path /api/processes?pageSize=20] [--node-flags "--cpu-prof --cpu-prof-dir=DIR"]

What tracing costs a request: the service's CPU a request on --path (a loaded bench database, npm
run bench:load) with tracing off and on, in --pairs pairs. A pair is two fresh services, running
side by side (each its own build, started as npm start starts it: with the tracing module imported
first), one with tracing off and one with it on: OTEL_EXPORTER_OTLP_ENDPOINT set to an OTLP/HTTP
receiver in this process, which answers every export 200 and keeps nothing; the default sampler,
protocol and batching. Each is warmed up for --warmup seconds, then they are driven in turns of
--slice seconds (off, on, off, on...) until each has had --seconds, by the harness's driver
(autocannon, its own process); a service's CPU (user + system, /proc) is read around each of its
turns. Judged on the median of the pairs' on/off ratios. --node-flags adds node flags to every
service (a profiler's).`;

/** The tracing module `npm start` imports before the service: this file runs from <build>/bench/. */
const TRACING_REGISTER = join(dirname(fileURLToPath(import.meta.url)), '../src/tracing/register.js');

interface Options {
  url: string;
  pairs: number;
  seconds: number;
  slice: number;
  warmup: number;
  connections: number;
  user: BenchUserKey;
  path: string;
  nodeFlags: string[];
}

function parseOptions(): Options | null {
  const { values } = parseArgs({
    options: {
      'database-url': { type: 'string' },
      pairs: { type: 'string', default: '3' },
      seconds: { type: 'string', default: '15' },
      slice: { type: 'string', default: '3' },
      warmup: { type: 'string', default: '10' },
      connections: { type: 'string', default: '4' },
      user: { type: 'string', default: 'staff' },
      path: { type: 'string', default: '/api/processes?pageSize=20' },
      'node-flags': { type: 'string', default: '' },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return null;
  }
  if (values['database-url'] === undefined) throw new RangeError('--database-url is required');
  if (!(values.user in BENCH_USERS))
    throw new RangeError(`--user is one of ${Object.keys(BENCH_USERS).join(', ')}`);
  return {
    url: values['database-url'],
    pairs: Number(values.pairs),
    seconds: Number(values.seconds),
    slice: Number(values.slice),
    warmup: Number(values.warmup),
    connections: Number(values.connections),
    user: values.user as BenchUserKey,
    path: values.path,
    nodeFlags: values['node-flags'].split(/\s+/).filter((flag) => flag !== ''),
  };
}

const log = (message: string): void => void process.stdout.write(`${message}\n`);

/** An OTLP/HTTP receiver that answers every export 200 and counts them. */
async function startReceiver(): Promise<{ server: Server; url: string; exports: () => number }> {
  let exports = 0;
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      exports++;
      response.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  return { server, url: `http://127.0.0.1:${port}`, exports: () => exports };
}

type Tracing = 'off' | 'on';

/** A service under measurement, and the driver's run against it. */
interface Measured {
  service: Awaited<ReturnType<typeof startService>>;
  run(durationSeconds: number): Promise<DriveResult>;
}

async function main(): Promise<void> {
  const options = parseOptions();
  if (options === null) return;
  const receiver = await startReceiver();
  const driver = startDriver();
  const ratios: number[] = [];
  try {
    log(`tracing off and on, ${options.path} as ${options.user}, ${options.connections} connections`);
    log('| pair | tracing | requests | req/s | p99 ms | CPU a request, ms | on/off |');
    log('|---|---|---|---|---|---|---|');
    for (let pair = 1; pair <= options.pairs; pair++) {
      const results = await measurePair(options, receiver.url, driver);
      const cpu = { off: cpuPerRequest(results.off), on: cpuPerRequest(results.on) };
      for (const tracing of ['off', 'on'] as const) {
        const result = results[tracing];
        const ratio = tracing === 'on' ? `${(cpu.on / cpu.off).toFixed(2)}x` : '';
        log(
          `| ${pair} | ${tracing} | ${result.requests} | ${result.rps.toFixed(0)} | ${result.p99} | ` +
            `${cpu[tracing].toFixed(3)} | ${ratio} |`,
        );
        if (result.errors > 0) throw new Error(`${result.errors} requests failed`);
      }
      ratios.push(cpu.on / cpu.off);
    }
    log(`\nmedian on/off: ${median(ratios).toFixed(2)}x; the receiver took ${receiver.exports()} exports`);
  } finally {
    driver.child.kill();
    receiver.server.close();
  }
}

/**
 * One pair: a fresh service with tracing off and one with it on, both running throughout, each
 * warmed up, then driven in turns of --slice seconds until each has had --seconds. Measured in
 * turns, both see the same moments of a shared machine's noise, which on a VM moves a run's CPU a
 * request by 20% from one minute to the next.
 */
async function measurePair(
  options: Options,
  otlpEndpoint: string,
  driver: ReturnType<typeof startDriver>,
): Promise<Record<Tracing, DriveResult>> {
  const started: Measured[] = [];
  try {
    for (const tracing of ['off', 'on'] as const) {
      started.push(await startMeasured(options, tracing === 'on' ? otlpEndpoint : null, driver));
    }
    const [off, on] = started as [Measured, Measured];
    for (const measured of started) await measured.run(options.warmup);
    const turns: Record<Tracing, DriveResult[]> = { off: [], on: [] };
    for (let measuredSeconds = 0; measuredSeconds < options.seconds; measuredSeconds += options.slice) {
      const seconds = Math.min(options.slice, options.seconds - measuredSeconds);
      turns.off.push(await off.run(seconds));
      turns.on.push(await on.run(seconds));
    }
    return { off: combined(turns.off), on: combined(turns.on) };
  } finally {
    for (const { service } of started) await stopService(service.child);
  }
}

async function startMeasured(
  options: Options,
  otlpEndpoint: string | null,
  driver: ReturnType<typeof startDriver>,
): Promise<Measured> {
  const service = await startService({
    url: options.url,
    pgliteDir: null,
    operationsUrl: 'http://127.0.0.1:9',
    nodeFlags: [...options.nodeFlags, '--import', TRACING_REGISTER],
    env: otlpEndpoint === null ? {} : { OTEL_EXPORTER_OTLP_ENDPOINT: otlpEndpoint },
  });
  const { username, password } = BENCH_USERS[options.user];
  const token = await login(service.url, username, password);
  return {
    service,
    run: (durationSeconds) =>
      driver.run({
        url: service.url,
        paths: [options.path],
        headers: { authorization: `Bearer ${token}` },
        connections: options.connections,
        durationSeconds,
        serverPid: service.child.pid!,
      }),
  };
}

/**
 * The turns of one service as one run: counts and CPU summed, rates and the mean body over the
 * requests, the worst turn's p50 and p99 (percentiles do not sum), the rotation where the last
 * turn left it.
 */
function combined(turns: readonly DriveResult[]): DriveResult {
  const sum = (pick: (turn: DriveResult) => number) => turns.reduce((total, turn) => total + pick(turn), 0);
  const worst = (pick: (turn: DriveResult) => number) => Math.max(...turns.map(pick));
  const requests = sum((turn) => turn.requests);
  const seconds = sum((turn) => turn.requests / turn.rps);
  const last = turns.at(-1)!;
  return {
    id: last.id,
    requests,
    rps: requests / seconds,
    p50: worst((turn) => turn.p50),
    p99: worst((turn) => turn.p99),
    errors: sum((turn) => turn.errors),
    bodyBytes:
      last.bodyBytes === null ? null : sum((turn) => (turn.bodyBytes ?? 0) * turn.requests) / requests,
    used: last.used,
    serverCpuMs: sum((turn) => turn.serverCpuMs ?? Number.NaN),
    serverOffMainCpuMs: sum((turn) => turn.serverOffMainCpuMs ?? Number.NaN),
  };
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
