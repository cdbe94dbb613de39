// The drizzle schema (one file a table in src/database/schema/, gathered by src/database/schema.ts)
// and the SQL migrations must say the same thing: a change to one without the other (a new change
// kind, a column) fails here, not at runtime.
// drizzle-kit generates into a copy of migrations/; any file it writes is a migration missing.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';

// Relative: drizzle-kit reads --out as a path under the working directory.
mkdirSync('node_modules/.cache', { recursive: true });
const copy = mkdtempSync(join('node_modules', '.cache', 'schema-check-'));
try {
  cpSync('migrations', copy, { recursive: true });
  const before = new Set(readdirSync(copy));
  execFileSync(
    process.execPath,
    [
      'node_modules/drizzle-kit/bin.cjs',
      'generate',
      '--dialect=postgresql',
      '--schema=./src/database/schema.ts',
      `--out=${copy}`,
      '--name=missing',
    ],
    { stdio: ['ignore', 'ignore', 'inherit'] },
  );
  const missing = readdirSync(copy).filter((file) => !before.has(file));
  if (missing.length > 0) {
    console.error(
      `src/database/schema/ differs from migrations/: drizzle-kit would write ${missing.join(', ')}.\n` +
        'Run `npx drizzle-kit generate --name <what-changed>`, review the SQL and commit it.',
    );
    process.exitCode = 1;
  } else {
    console.log('src/database/schema/ and migrations/ agree');
  }
} finally {
  rmSync(copy, { recursive: true, force: true });
}
