import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { connect } from 'node:net';
import { closedPort } from '../src/testing/closed-port.js';
import { createTestDatabase, type TestDatabase } from '../src/testing/test-database.js';
import { waitUntil } from './support/wait-until.js';
import { statusOf } from '../src/testing/status-of.js';

const BOOT_TIMEOUT_MS = 120_000;

/** True while something accepts connections on the port. */
function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

const exited = (child: ChildProcess): Promise<void> =>
  child.exitCode !== null || child.signalCode !== null
    ? Promise.resolve()
    : new Promise((resolve) => child.once('exit', () => resolve()));

/**
 * `npm start` as a newcomer runs it (scripts/start.mjs, what the npm script runs): demo mode starts
 * the sandbox beside the service, the service reaches it over HTTP, and neither outlives the other.
 */
describe('npm start in demo mode', () => {
  beforeAll(() => {
    execFileSync(process.execPath, ['scripts/build-if-stale.mjs'], { stdio: 'ignore' });
  });

  async function boot(database: TestDatabase): Promise<{
    child: ChildProcess;
    port: number;
    sandboxPort: number;
    output: () => string;
  }> {
    const [port, sandboxPort] = [await closedPort(), await closedPort()];
    const chunks: Buffer[] = [];
    const child = spawn(process.execPath, ['scripts/start.mjs'], {
      env: {
        PATH: process.env.PATH,
        NODE_ENV: 'development',
        PORT: String(port),
        SANDBOX_PORT: String(sandboxPort),
        PGLITE_DIR: database.options.pgliteDir,
        LOG_LEVEL: 'info',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout?.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.stderr?.on('data', (chunk: Buffer) => chunks.push(chunk));
    await waitUntil(async () => {
      return (await statusOf(`http://127.0.0.1:${port}/health/ready`).catch(() => null)) === 200;
    }, BOOT_TIMEOUT_MS);
    return { child, port, sandboxPort, output: () => Buffer.concat(chunks).toString() };
  }

  // SIGTERM is how a terminal or a supervisor stops it; SIGKILL leaves the sandbox to notice alone.
  it.each<NodeJS.Signals>(['SIGTERM', 'SIGKILL'])(
    'reaches the sandbox over HTTP, and leaves nothing running after %s',
    async (signal) => {
      // Migrated already, as after a first start: what is tested here is the start, not initdb.
      const database = await createTestDatabase('pglite');
      const { child, port, sandboxPort, output } = await boot(database);
      try {
        const health = (await (await fetch(`http://127.0.0.1:${port}/health/ready`)).json()) as {
          info: { operations: { adapter: string; circuit: string } };
        };
        expect(health.info.operations).toEqual(
          expect.objectContaining({ adapter: 'http', circuit: 'closed' }),
        );
        expect(
          await statusOf(`http://127.0.0.1:${sandboxPort}/control/clock`, {
            headers: { 'x-api-key': 'demo-operations-key' },
          }),
        ).toBe(200);
        await waitUntil(
          () => Promise.resolve(output().includes(`Sandbox        http://127.0.0.1:${sandboxPort}`)),
          10_000,
        );
      } finally {
        child.kill(signal);
        await exited(child);
      }
      try {
        await waitUntil(async () => !(await listening(sandboxPort)), 10_000);
        expect(await listening(port)).toBe(false);
      } finally {
        await database.drop();
      }
    },
    2 * BOOT_TIMEOUT_MS,
  );
});
