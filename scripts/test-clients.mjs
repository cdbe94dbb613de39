// Generates a client from openapi.json with each of openapi-typescript (+ openapi-fetch),
// @hey-api/openapi-ts and orval into generated/clients/, compiles each with its program in
// scripts/clients/ under `tsc --strict` (no skipLibCheck), boots the built service in demo mode on
// a free port, the way `npm start` does (scripts/start.mjs: the sandbox beside it, on a free port
// too), and runs every program against it.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { join } from 'node:path';
import { createClient as heyApi } from '@hey-api/openapi-ts';
import { generate as orval } from 'orval';
import openapiTS, { astToString } from 'openapi-typescript';

const OUT = 'generated/clients';
const SPEC = 'openapi.json';
const CLIENTS = ['openapi-fetch', 'hey-api', 'orval'];

function run(command, args, options = {}) {
  const result = spawnSync(command, args, { stdio: 'inherit', ...options });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed (${result.status})`);
}

rmSync(OUT, { recursive: true, force: true });
mkdirSync(`${OUT}/openapi-typescript`, { recursive: true });
const document = JSON.parse(readFileSync(SPEC, 'utf8'));
writeFileSync(`${OUT}/openapi-typescript/openapi.d.ts`, astToString(await openapiTS(document)));
await heyApi({
  input: SPEC,
  output: { path: `${OUT}/hey-api`, importFileExtension: '.js' },
  plugins: ['@hey-api/client-fetch'],
  logs: { level: 'warn' },
});
await orval({
  input: { target: SPEC },
  output: { target: `${OUT}/orval/api.ts`, client: 'fetch', mode: 'single' },
});

// One program for the three: each compiles against its own client only, and the compiler starts once.
console.log(`tsc --strict: ${CLIENTS.join(', ')}`);
run('node', [
  'node_modules/typescript/bin/tsc',
  '--ignoreConfig',
  '--strict',
  '--noUncheckedIndexedAccess',
  '--skipLibCheck',
  'false',
  '--module',
  'nodenext',
  '--target',
  'es2023',
  '--lib',
  'es2023,dom',
  '--types',
  'node',
  '--outDir',
  `${OUT}/out`,
  '--rootDir',
  '.',
  ...CLIENTS.map((name) => `scripts/clients/${name}.ts`),
]);

const freePort = () =>
  new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port: free } = probe.address();
      probe.close(() => resolve(free));
    });
  });
const port = await freePort();
const sandboxPort = await freePort();
run('node', ['scripts/build-if-stale.mjs']);
const dataDir = mkdtempSync(join(tmpdir(), 'clients-pglite-'));
const { DATABASE_URL: _database, REDIS_URL: _redis, ...environment } = process.env;
const service = spawn('node', ['scripts/start.mjs'], {
  env: {
    ...environment,
    NODE_ENV: 'development',
    PORT: String(port),
    SANDBOX_PORT: String(sandboxPort),
    PGLITE_DIR: dataDir,
    LOG_LEVEL: 'warn',
  },
  stdio: ['ignore', 'inherit', 'inherit'],
});
const baseUrl = `http://127.0.0.1:${port}`;
try {
  const deadline = Date.now() + 180_000;
  for (;;) {
    const ready = await globalThis.fetch(`${baseUrl}/health/ready`).then(
      (answer) => answer.ok,
      () => false,
    );
    if (ready) break;
    if (service.exitCode !== null || Date.now() > deadline) throw new Error('the service did not get ready');
    await sleep(500);
  }
  for (const name of CLIENTS) {
    run('node', [`${OUT}/out/scripts/clients/${name}.js`], {
      env: { ...process.env, BASE_URL: baseUrl },
    });
  }
} finally {
  service.kill('SIGTERM');
  await new Promise((resolve) => service.once('exit', resolve));
  rmSync(dataDir, { recursive: true, force: true });
}
