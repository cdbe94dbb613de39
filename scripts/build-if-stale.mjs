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
      'package-lock.json',
    ],
    output: 'dist/main.js',
    // `nest build` empties dist/ first (deleteOutDir), so no output of a deleted source remains.
    command: ['node_modules/@nestjs/cli/bin/nest.js', 'build'],
  },
  {
    name: 'the sandbox',
    sources: ['sandbox/src', 'sandbox/tsconfig.json', 'sandbox/tsconfig.build.json', 'package-lock.json'],
    output: 'sandbox/dist/main.js',
    command: ['node_modules/typescript/bin/tsc', '-p', 'sandbox/tsconfig.build.json'],
  },
  {
    name: 'the portal',
    sources: ['portal', 'package-lock.json'],
    output: 'portal/dist/index.html',
    command: [
      'node_modules/vite/bin/vite.js',
      'build',
      '--config',
      'portal/vite.config.ts',
      '--logLevel',
      'warn',
    ],
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
    execFileSync(process.execPath, build.command, { stdio: 'inherit' });
  } catch {
    process.exit(1);
  }
}
