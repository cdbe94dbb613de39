// `npm run lint`: every linter runs and reports, whichever fails first (one failing does not hide
// the others' findings); the exit code is non-zero if any failed.
import { spawnSync } from 'node:child_process';

const LINTERS = [
  ['ESLint', ['node_modules/eslint/bin/eslint.js', '.']],
  [
    'layers',
    [
      'node_modules/dependency-cruiser/bin/dependency-cruise.mjs',
      'src',
      'test',
      'sandbox/src',
      '--config',
      '.dependency-cruiser.mjs',
      '--output-type',
      'err-long',
    ],
  ],
  ['schema', ['scripts/check-schema.mjs']],
];

const failed = LINTERS.filter(([name, args]) => {
  console.log(`lint: ${name}`);
  return spawnSync(process.execPath, args, { stdio: 'inherit' }).status !== 0;
});
if (failed.length > 0) {
  console.error(`lint: ${failed.map(([name]) => name).join(', ')} failed`);
  process.exit(1);
}
