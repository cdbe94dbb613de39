import { readFileSync } from 'node:fs';

// The sandbox's own tests, run like the service's: TypeScript through SWC with the build's settings
// (`.swcrc`) under `node --experimental-vm-modules`, `.js` import suffixes mapped to the `.ts` sources.
const { $schema: _schema, ...swcOptions } = JSON.parse(
  readFileSync(new URL('./.swcrc', import.meta.url), 'utf8'),
);

const shared = {
  extensionsToTreatAsEsm: ['.ts'],
  transform: { '^.+\\.ts$': ['@swc/jest', { ...swcOptions, swcrc: false }] },
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  testEnvironment: 'node',
  rootDir: 'src',
};

/** @type {import('jest').Config} */
export default {
  testTimeout: 30_000,
  maxWorkers: 2,
  projects: [
    // Pure: the simulation and the control logic.
    { ...shared, displayName: 'sandbox-unit', testMatch: ['**/*.spec.ts'] },
    // The HTTP server on loopback, the notifier against a receiver.
    { ...shared, displayName: 'sandbox-integration', testMatch: ['**/*.integration-spec.ts'] },
  ],
};
