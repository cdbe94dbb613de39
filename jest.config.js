import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import sandbox from './sandbox/jest.config.js';

/**
 * Jest runs the ESM sources through SWC under `node --experimental-vm-modules`, with the build's
 * own settings (`.swcrc`: legacy decorators and their metadata), so the tests run the code `nest
 * build` emits. Relative imports carry `.js` as NodeNext requires; the mapper strips it so Jest
 * resolves the `.ts` file.
 */
const { $schema: _schema, ...swcOptions } = JSON.parse(
  readFileSync(new URL('./.swcrc', import.meta.url), 'utf8'),
);

/** Jest's Node environment on an ordinary global object: globals read at full speed. */
const PLAIN_GLOBAL_ENVIRONMENT = fileURLToPath(
  new URL('./test/support/plain-global.environment.js', import.meta.url),
);

const shared = {
  extensionsToTreatAsEsm: ['.ts'],
  transform: { '^.+\\.ts$': ['@swc/jest', { ...swcOptions, swcrc: false }] },
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  testEnvironment: PLAIN_GLOBAL_ENVIRONMENT,
};

/** @type {import('jest').Config} */
export default {
  // Suites boot PGlite (WASM) and hash passwords with argon2 on a 2-core machine.
  testTimeout: 30_000,
  // Jest's default is one worker fewer than the cores: a single one on a 2-core machine.
  maxWorkers: 2,
  // A worker ends when its event loop is empty. On a busy 2-core machine a worker that ran PGlite
  // (hundreds of MB of WASM memory) takes longer than Jest's 500 ms to get there, and was killed
  // with a leak warning although nothing was left open (with 10 s, each exits on its own within a
  // second of the run's end). A handle really left open still shows, 5 s later.
  workerGracefulExitTimeout: 5_000,
  // Jest's own order, but the remote suite's OpenAPI coverage spec after every file it sums up.
  testSequencer: '<rootDir>/test/remote/support/coverage-last.sequencer.js',
  projects: [
    // Pure: no database, no network, no real waiting. Beside the code they test.
    {
      ...shared,
      displayName: 'unit',
      rootDir: 'src',
      // Also the house's generator (`nest g feature`), on a virtual tree, and the portal's own
      // unit specs (no browser: its catalogues and formats).
      roots: ['<rootDir>', '<rootDir>/../schematics', '<rootDir>/../portal/test'],
      testMatch: ['**/*.spec.ts'],
      setupFilesAfterEnv: ['<rootDir>/testing/unit-tier.setup.ts'],
    },
    // Real PGlite and PostgreSQL, Redis, loopback servers. Beside the code they test too.
    { ...shared, displayName: 'integration', rootDir: 'src', testMatch: ['**/*.integration-spec.ts'] },
    // The whole app, one per file, through HTTP only.
    { ...shared, displayName: 'e2e', rootDir: 'test', testMatch: ['**/*.e2e-spec.ts'] },
    // A running deployment, by URL (E2E_BASE_URL): black-box, over HTTP only. `npm run
    // test:e2e:remote` runs its files in band: they share one user's rate limit and one address.
    { ...shared, displayName: 'remote', rootDir: 'test', testMatch: ['**/*.remote-spec.ts'] },
    // The sandbox's own tiers, so that `npm test` is one run: two workers kept busy to the end,
    // rather than each tier waiting for its slowest file while the other core idles.
    ...sandbox.projects.map((project) => ({
      ...project,
      rootDir: 'sandbox/src',
      testEnvironment: PLAIN_GLOBAL_ENVIRONMENT,
    })),
  ],
  collectCoverageFrom: ['src/**/*.ts', '!src/**/*[.-]spec.ts', '!src/testing/**'],
};
