// `npm start` runs the compiled service and serves the built portal; this builds each first when
// its output is missing or older than its sources, so a fresh clone starts with one command and
// later starts pay nothing.
import { execFileSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

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

for (const build of BUILDS) {
  if (builtAt(build.output) >= Math.max(...build.sources.map(newestModification))) continue;
  console.error(`Building ${build.name} (its output is missing or older than its sources)...`);
  try {
    execFileSync('npm', ['run', '--silent', build.script], { stdio: 'inherit' });
  } catch {
    process.exit(1);
  }
}
