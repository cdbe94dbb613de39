// Compiles the bench, and with it its own copy of the service (src/main.ts and everything it
// imports, same compiler options as the service's `tsc -p tsconfig.build.json`), into node_modules/.cache/process-lookup-bench,
// next to a copy of the migrations so DatabaseService finds them at the same relative path as in
// dist/. A private build: another `npm run build` emptying dist/ cannot pull files from under a run.
// Type errors in bench/ fail the build; errors elsewhere (someone's work in progress in src/) are
// reported and the emitted JavaScript is used, as tsc emits it anyway.
import { spawnSync } from 'node:child_process';
import { cpSync, rmSync } from 'node:fs';

export const BENCH_BUILD = 'node_modules/.cache/process-lookup-bench';

rmSync(BENCH_BUILD, { recursive: true, force: true });
const tsc = spawnSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'bench/tsconfig.json'], {
  encoding: 'utf8',
});
const output = `${tsc.stdout}${tsc.stderr}`;
if (output.trim() !== '') console.error(output.trim());
if (tsc.status !== 0 && (/^bench\//m.test(output) || !/error TS/.test(output))) {
  console.error('bench build failed');
  process.exit(1);
}
cpSync('migrations', `${BENCH_BUILD}/migrations`, { recursive: true });
