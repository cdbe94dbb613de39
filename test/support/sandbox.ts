import { Sandbox } from '../../sandbox/src/control/sandbox.js';
import { SandboxClock } from '../../sandbox/src/control/sandbox-clock.js';
import {
  startSandboxServer,
  type SandboxServer,
  type SimulatorFaults,
} from '../../sandbox/src/server/sandbox.server.js';
import {
  demoSimulationOptions,
  type SimulationOptions,
} from '../../sandbox/src/simulation/simulation-options.js';

const DEFAULT_API_KEY = 'sandbox-key-7c21';

export interface TestSandbox {
  server: SandboxServer;
  clock: SandboxClock;
  /** The service's environment to reach it. */
  env: { OPERATIONS_BASE_URL: string; OPERATIONS_API_KEY: string };
  close(): Promise<void>;
}

/**
 * The sandbox (the simulated operations system) on a loopback port, as tests reach it: over HTTP.
 * `at` freezes its clock there (else it follows the machine's); `simulation` overrides the demo's
 * options.
 */
export async function startTestSandbox(
  options: {
    at?: Date;
    apiKey?: string;
    simulation?: Partial<SimulationOptions>;
    faults?: Partial<SimulatorFaults>;
  } = {},
): Promise<TestSandbox> {
  const apiKey = options.apiKey ?? DEFAULT_API_KEY;
  const clock = options.at === undefined ? new SandboxClock() : SandboxClock.frozenAt(options.at);
  const sandbox = new Sandbox({ ...demoSimulationOptions(clock.now()), ...options.simulation }, clock);
  const server = await startSandboxServer({
    sandbox,
    clock,
    apiKey,
    ...(options.faults !== undefined && { faults: options.faults }),
  });
  return {
    server,
    clock,
    env: { OPERATIONS_BASE_URL: server.url, OPERATIONS_API_KEY: apiKey },
    close: () => server.close(),
  };
}
