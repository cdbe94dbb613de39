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
        [--warmup 10] [--connections 4] [--user staff|largeCustomer] [--path /api/processes?pageSize=20]
        [--node-flags "--cpu-prof --cpu-prof-dir=DIR"]

What tracing costs a request: the service's CPU a request on --path (a loaded bench database, npm
run bench:load) with tracing off and on, in --pairs interleaved pairs (off, on, off, on...), each
run a fresh service (its own build, started as npm start starts it: with the tracing module
imported first). On: OTEL_EXPORTER_OTLP_ENDPOINT set to an OTLP/HTTP receiver in this process,
which answers every export 200 and keeps nothing; the default sampler, protocol and batching.
Each run warms up for --warmup seconds, then the CPU (user + system, /proc) is read around
--seconds of load from the harness's driver (autocannon, its own process). Judged on the median of
the pairs' on/off ratios. --node-flags adds node flags to every run's service (a profiler's).`;

/** The tracing module `npm start` imports before the service: this file runs from <build>/bench/. */
const TRACING_REGISTER = join(dirname(fileURLToPath(import.meta.url)), '../src/tracing/register.js');

interface Options {
  url: string;
  pairs: number;
  seconds: number;
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
      const cpu: Record<'off' | 'on', number> = { off: Number.NaN, on: Number.NaN };
      for (const tracing of ['off', 'on'] as const) {
        const result = await measure(options, tracing === 'on' ? receiver.url : null, driver);
        cpu[tracing] = cpuPerRequest(result);
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

/** One run on a fresh service: warmed up, then measured. */
async function measure(
  options: Options,
  otlpEndpoint: string | null,
  driver: ReturnType<typeof startDriver>,
): Promise<DriveResult> {
  const service = await startService({
    url: options.url,
    pgliteDir: null,
    operationsUrl: 'http://127.0.0.1:9',
    nodeFlags: [...options.nodeFlags, '--import', TRACING_REGISTER],
    env: otlpEndpoint === null ? {} : { OTEL_EXPORTER_OTLP_ENDPOINT: otlpEndpoint },
  });
  try {
    const { username, password } = BENCH_USERS[options.user];
    const token = await login(service.url, username, password);
    const run = (durationSeconds: number) =>
      driver.run({
        url: service.url,
        paths: [options.path],
        headers: { authorization: `Bearer ${token}` },
        connections: options.connections,
        durationSeconds,
        serverPid: service.child.pid!,
      });
    await run(options.warmup);
    return await run(options.seconds);
  } finally {
    await stopService(service.child);
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
