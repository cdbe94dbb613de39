import { parseArgs } from 'node:util';
import type { OutageMode, SimulatorFaults } from './sandbox.server.js';
import {
  DEMO_SIMULATION,
  demoSimulationOptions,
  type SimulationOptions,
} from '../simulation/simulation-options.js';

export const SANDBOX_USAGE = `Usage: sandbox serve [options]   (the simulated operations system)

  --port <n>             port to listen on (SANDBOX_PORT, default 3100; 0 picks a free one)
  --host <addr>          address to bind (default 127.0.0.1)
  --api-key <key>        required X-Api-Key value (OPERATIONS_API_KEY; one of them is required)
  --notify-url <url>     where to send change notifications (SANDBOX_NOTIFY_URL; none by default),
                         signed with OPERATIONS_NOTIFY_SECRET (a whsec_ secret, then required)
  --processes <n>        number of processes (default ${DEMO_SIMULATION.processCount})
  --customers <n>        number of customers, at least 3 (default ${DEMO_SIMULATION.customerCount})
  --seed <n>             random seed (default ${DEMO_SIMULATION.seed})
  --epoch <instant>      start of the timelines (default: ${DEMO_SIMULATION.epochDaysBeforeNow} days before today, UTC midnight)
  --latency-ms <n>       added to every answer
  --jitter-ms <n>        up to this much more, at random
  --error-rate <0..1>    fraction answered 500/503
  --timeout-rate <0..1>  fraction never answered
  --redirect-rate <0..1> fraction answered 302
  --oversized-rate <0..1> fraction answered with a huge body
  --garbage-rate <0..1>  fraction answered with invalid JSON or the wrong shape
  --outage <mode>        off | reset (connections destroyed) | unavailable (503 to everything)
  --help                 show this

Steer it while running with the control API (/control/...: npm run sandbox -- help), or every
fault knob with PUT /_sim/faults (JSON), DELETE /_sim/faults, GET /_sim/stats.`;

export interface SandboxServeOptions {
  apiKey: string;
  port: number;
  host: string;
  faults: Partial<SimulatorFaults>;
  notify: { url: string; secret: string } | null;
}

export type SandboxCommand =
  { kind: 'help' } | { kind: 'serve'; server: SandboxServeOptions; simulation: SimulationOptions };

function number(name: string, text: string | undefined, fallback: number, integer: boolean): number {
  if (text === undefined) return fallback;
  const value = Number(text);
  if (text.trim() === '' || !Number.isFinite(value) || (integer && !Number.isInteger(value))) {
    throw new RangeError(`--${name} must be ${integer ? 'an integer' : 'a number'}, got "${text}"`);
  }
  return value;
}

/** Reads the command line and environment; throws a RangeError naming the bad flag. */
export function parseSandboxArgs(argv: readonly string[], env: NodeJS.ProcessEnv, now: Date): SandboxCommand {
  const { values } = parseArgs({
    args: [...argv],
    strict: true,
    options: {
      port: { type: 'string' },
      host: { type: 'string' },
      'api-key': { type: 'string' },
      'notify-url': { type: 'string' },
      processes: { type: 'string' },
      customers: { type: 'string' },
      seed: { type: 'string' },
      epoch: { type: 'string' },
      'latency-ms': { type: 'string' },
      'jitter-ms': { type: 'string' },
      'error-rate': { type: 'string' },
      'timeout-rate': { type: 'string' },
      'redirect-rate': { type: 'string' },
      'oversized-rate': { type: 'string' },
      'garbage-rate': { type: 'string' },
      outage: { type: 'string' },
      help: { type: 'boolean' },
    },
  });
  if (values.help === true) {
    return { kind: 'help' };
  }
  const apiKey = values['api-key'] ?? env.OPERATIONS_API_KEY ?? '';
  if (apiKey === '') {
    throw new RangeError('an API key is required: --api-key or OPERATIONS_API_KEY');
  }
  const port = number('port', values.port ?? env.SANDBOX_PORT, 3100, true);
  if (port < 0 || port > 65535) {
    throw new RangeError('--port must be between 0 and 65535');
  }
  const demo = demoSimulationOptions(now);
  const epoch = values.epoch !== undefined ? new Date(values.epoch) : demo.epoch;
  if (Number.isNaN(epoch.getTime())) {
    throw new RangeError(`--epoch must be an instant, got "${values.epoch}"`);
  }
  const outage = values.outage ?? 'off';
  if (outage !== 'off' && outage !== 'reset' && outage !== 'unavailable') {
    throw new RangeError('--outage must be off, reset or unavailable');
  }
  const faults: Partial<SimulatorFaults> = {
    latencyMs: number('latency-ms', values['latency-ms'], 0, false),
    jitterMs: number('jitter-ms', values['jitter-ms'], 0, false),
    errorRate: number('error-rate', values['error-rate'], 0, false),
    timeoutRate: number('timeout-rate', values['timeout-rate'], 0, false),
    redirectRate: number('redirect-rate', values['redirect-rate'], 0, false),
    oversizedRate: number('oversized-rate', values['oversized-rate'], 0, false),
    garbageRate: number('garbage-rate', values['garbage-rate'], 0, false),
    outage: outage satisfies OutageMode,
  };
  return {
    kind: 'serve',
    server: {
      apiKey,
      port,
      host: values.host ?? '127.0.0.1',
      faults,
      notify: notifyOf(values['notify-url'], env),
    },
    simulation: {
      ...demo,
      seed: number('seed', values.seed, demo.seed, true),
      processCount: number('processes', values.processes, demo.processCount, true),
      customerCount: number('customers', values.customers, demo.customerCount, true),
      epoch,
    },
  };
}

function notifyOf(flag: string | undefined, env: NodeJS.ProcessEnv): SandboxServeOptions['notify'] {
  const url = flag ?? env.SANDBOX_NOTIFY_URL ?? '';
  if (url === '') return null;
  if (!URL.canParse(url) || !/^https?:$/.test(new URL(url).protocol)) {
    throw new RangeError(`--notify-url must be an http(s) URL, got "${url}"`);
  }
  const secret = env.OPERATIONS_NOTIFY_SECRET ?? '';
  if (!/^whsec_[A-Za-z0-9+/]{16,}={0,2}$/.test(secret)) {
    throw new RangeError(
      'OPERATIONS_NOTIFY_SECRET must be a whsec_ secret (base64 after the prefix) to send notifications',
    );
  }
  return { url, secret };
}
