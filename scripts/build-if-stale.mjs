// `npm start` runs the compiled service and serves the built portal; this builds each first when
// its output is missing or older than its sources, so a fresh clone starts with one command and
// later starts pay nothing.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

// Several test files (and `npm start`) may find the same output stale at once: one builds while
// the others wait, then find it fresh. Concurrent builds would empty each other's output folders.
const LOCK = 'node_modules/.cache/build-if-stale.lock';
const LONGEST_BUILD_MS = 5 * 60_000;

const BUILDS = [
  {
    name: 'the service',
    sources: [
      'src',
      'migrations',
      'tsconfig.json',
      'tsconfig.build.json',
      'nest-cli.json',
      '.swcrc',
      'package-lock.json',
    ],
    output: 'dist/main.js',
    // Both empty their output folder first, so no output of a deleted source remains.
    script: 'build:service',
  },
  {
    name: 'the sandbox',
    sources: ['sandbox/src', 'sandbox/.swcrc', 'sandbox/package.json', 'package-lock.json'],
    output: 'sandbox/dist/main.js',
    script: 'build:sandbox',
  },
  {
    name: 'the portal',
    sources: ['portal', 'package-lock.json'],
    output: 'portal/dist/index.html',
    script: 'build:portal',
  },
];

function newestModification(path) {
  const stats = statSync(path);
  if (!stats.isDirectory()) return stats.mtimeMs;
  return Math.max(0, ...readdirSync(path).map((entry) => newestModification(join(path, entry))));
}

function builtAt(output) {
  try {
    return statSync(output).mtimeMs;
  } catch {
    return -1;
  }
}

const isStale = (build) => builtAt(build.output) < Math.max(...build.sources.map(newestModification));

/** Takes the lock: a file naming its holder, taken over when that process is gone (killed mid-build). */
async function lock() {
  mkdirSync(dirname(LOCK), { recursive: true });
  for (;;) {
    try {
      writeFileSync(LOCK, String(process.pid), { flag: 'wx' });
      return;
    } catch (error) {
      if (error.code !== 'EEXIST') throw error;
    }
    if (!isHeld()) {
      rmSync(LOCK, { force: true });
      continue;
    }
    await sleep(200);
  }
}

/**
 * Whether the lock's holder is still there: a live process, for as long as a build can take (its
 * pid may have been reused since, after a container restart), or a lock still being written.
 */
function isHeld() {
  let holder;
  try {
    holder = readFileSync(LOCK, 'utf8');
  } catch (error) {
    if (error.code === 'ENOENT') return true; // released just now: try again
    throw error;
  }
  const age = Date.now() - builtAt(LOCK);
  if (holder === '') return age < 5_000;
  return age < LONGEST_BUILD_MS && isAlive(Number(holder));
}

function isAlive(pid) {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
}

if (BUILDS.some(isStale)) {
  await lock();
  try {
    for (const build of BUILDS.filter(isStale)) {
      console.error(`Building ${build.name} (its output is missing or older than its sources)...`);
      execFileSync('npm', ['run', '--silent', build.script], { stdio: 'inherit' });
    }
  } catch {
    process.exitCode = 1;
  } finally {
    rmSync(LOCK, { force: true });
  }
}
