import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** This file runs from <build>/bench/; the service built with it is <build>/src/main.js. */
const SERVICE_MAIN = join(dirname(fileURLToPath(import.meta.url)), '../src/main.js');
/** The repository root: the service's working directory. */
const ROOT = process.cwd();

export interface ServiceTarget {
  /** A PostgreSQL database, or null for PGlite in {@link pgliteDir}. */
  url: string | null;
  pgliteDir: string | null;
  operationsUrl: string;
  /** More environment for the service (a limit raised for a bench, say). */
  env?: Record<string, string>;
  /** More node flags, after those of `npm start` (a profiler's, say). */
  nodeFlags?: string[];
  /**
   * Another checkout whose build (`dist/main.js`) runs instead of the bench's own, from that
   * directory and with its `npm start` flags: an earlier commit measured beside this one.
   */
  serviceDir?: string;
}

export async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  server.close();
  return port;
}

/**
 * Boots the bench's build of the service (NODE_ENV=production, the node flags of `npm start`, no
 * scheduled sync, warnings only in the log, no practical rate limit) and waits until it answers.
 */
export async function startService(target: ServiceTarget): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    NODE_ENV: 'production',
    PORT: String(port),
    JWT_SECRET: randomBytes(48).toString('base64url'),
    OPERATIONS_BASE_URL: target.operationsUrl,
    OPERATIONS_API_KEY: 'bench-operations-key',
    SYNC_INTERVAL_S: '0',
    LOG_LEVEL: 'warn',
    RATE_LIMIT_PER_USER_PER_MINUTE: '1000000',
    ...(target.url !== null ? { DATABASE_URL: target.url } : { PGLITE_DIR: target.pgliteDir! }),
    ...target.env,
  };
  const root = target.serviceDir ?? ROOT;
  const main = target.serviceDir === undefined ? SERVICE_MAIN : join(target.serviceDir, 'dist/main.js');
  const child = spawn(process.execPath, [...startScriptNodeFlags(root), ...(target.nodeFlags ?? []), main], {
    cwd: root,
    env,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  for (let attempt = 0; attempt < 240; attempt++) {
    if (child.exitCode !== null) throw new Error(`the service exited with ${child.exitCode}`);
    try {
      const response = await fetch(`${url}/api/processes`);
      if (response.status === 401) return { url, child };
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  child.kill();
  throw new Error('the service did not start within 60 s');
}

/**
 * Stops the service as an orchestrator would (SIGTERM) and waits for it to exit, so that what it
 * writes on exit (a `--cpu-prof` profile) is complete.
 */
export async function stopService(child: ChildProcess, timeoutMs = 30_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  await exited;
  clearTimeout(timer);
}

/**
 * The node flags `npm start` gives the service (its heap sizing), so the bench runs it alike; not
 * its `--import` of the tracing module, which would load another build's file (tracing is off in
 * the bench unless it is measured on purpose).
 */
export function startScriptNodeFlags(root: string): string[] {
  const { scripts } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
    scripts: { start: string };
  };
  const tokens = scripts.start.split(/\s+/);
  return tokens.filter(
    (token, index) => token.startsWith('--') && token !== '--import' && tokens[index - 1] !== '--import',
  );
}

/** An access token for a user, from the service's login. */
export async function login(url: string, username: string, password: string): Promise<string> {
  const response = await fetch(`${url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password }),
  });
  if (response.status !== 200)
    throw new Error(`login as ${username}: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { accessToken: string }).accessToken;
}
