// `npm start` runs the compiled service; this builds it first when dist/ is missing or older
// than the sources, so a fresh clone starts with one command and later starts pay nothing.
import { execFileSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const SOURCES = ['src', 'migrations', 'tsconfig.json', 'tsconfig.build.json', 'package-lock.json'];
const OUTPUT = 'dist/main.js';

function newestModification(path) {
  const stats = statSync(path);
  if (!stats.isDirectory()) return stats.mtimeMs;
  return Math.max(0, ...readdirSync(path).map((entry) => newestModification(join(path, entry))));
}

function builtAt() {
  try {
    return statSync(OUTPUT).mtimeMs;
  } catch {
    return -1;
  }
}

if (builtAt() < Math.max(...SOURCES.map(newestModification))) {
  console.error('Building the service (dist/ is missing or older than the sources)...');
  try {
    execFileSync(process.execPath, ['node_modules/@nestjs/cli/bin/nest.js', 'build'], { stdio: 'inherit' });
  } catch {
    process.exit(1);
  }
}
