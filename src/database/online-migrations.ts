import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';

/**
 * A migration's online step: `migrations/online/<tag>.sql`, statements that must not run inside
 * the migrations' transaction because they take long on a large table (`CREATE INDEX
 * CONCURRENTLY`, `ALTER TABLE … VALIDATE CONSTRAINT`) but block neither reads nor writes. They
 * run one at a time after drizzle has committed, and a step is recorded once all of its
 * statements succeeded; a step cut short (a killed `npm run migrate`) runs again from its first
 * statement at the next run, so every statement must be idempotent.
 */
export interface OnlineStep {
  tag: string;
  statements: string[];
}

/** Runs one statement on the migration's session, outside any transaction. */
export type RunStatement = (text: string, params?: unknown[]) => Promise<{ rows: unknown[] }>;
/** Runs a statement without parameters: all that asking which steps are pending takes. */
export type ReadStatement = (text: string) => Promise<{ rows: unknown[] }>;

const ONLINE_FOLDER = 'online';
/** drizzle's own bookkeeping schema, beside `__drizzle_migrations`. */
const STEPS_TABLE = 'drizzle.online_migration_steps';
const CREATE_INDEX = /^CREATE\s+(?:UNIQUE\s+)?INDEX\b/i;
const CONCURRENT_INDEX = /^CREATE\s+(?:UNIQUE\s+)?INDEX\s+CONCURRENTLY\s+IF\s+NOT\s+EXISTS\s+"?([\w$]+)"?/i;

/** The online steps of the migrations in `migrationsFolder`, in the journal's order. */
export function onlineSteps(migrationsFolder: string): OnlineStep[] {
  const journal = JSON.parse(readFileSync(resolve(migrationsFolder, 'meta/_journal.json'), 'utf8')) as {
    entries: Array<{ tag: string }>;
  };
  return journal.entries.flatMap(({ tag }) => {
    const path = resolve(migrationsFolder, ONLINE_FOLDER, `${tag}.sql`);
    if (!existsSync(path)) return [];
    return [{ tag, statements: statementsOf(readFileSync(path, 'utf8'), path) }];
  });
}

/** The tags of the steps not recorded as done (the table missing: none was). */
export async function pendingOnlineSteps(
  run: ReadStatement,
  steps: readonly OnlineStep[],
): Promise<string[]> {
  if (steps.length === 0) return [];
  const [table] = (await run(`SELECT to_regclass('${STEPS_TABLE}') IS NOT NULL AS present`)).rows as Array<{
    present: boolean;
  }>;
  if (table?.present !== true) return steps.map((step) => step.tag);
  const done = new Set(
    ((await run(`SELECT tag FROM ${STEPS_TABLE}`)).rows as Array<{ tag: string }>).map((row) => row.tag),
  );
  return steps.filter((step) => !done.has(step.tag)).map((step) => step.tag);
}

/**
 * Runs the steps not done yet, in order, each statement on its own (autocommit). An index that a
 * killed concurrent build left INVALID is dropped first: `IF NOT EXISTS` would take it as built.
 * PGlite runs them as PostgreSQL does; it has no other session to wait for.
 */
export async function runOnlineSteps(
  run: RunStatement,
  steps: readonly OnlineStep[],
  log: (message: string) => void,
): Promise<void> {
  const pending = new Set(await pendingOnlineSteps(run, steps));
  if (pending.size === 0) return;
  await run(
    `CREATE TABLE IF NOT EXISTS ${STEPS_TABLE} (tag text PRIMARY KEY, completed_at timestamptz NOT NULL DEFAULT now())`,
  );
  for (const step of steps) {
    if (!pending.has(step.tag)) continue;
    for (const statement of step.statements) {
      const started = Date.now();
      const index = CONCURRENT_INDEX.exec(statement)?.[1];
      if (index !== undefined) await dropIfInvalid(run, index);
      await run(statement);
      log(`Online step ${step.tag}: ${statement.slice(0, 90)}… ${Date.now() - started} ms`);
    }
    await run(`INSERT INTO ${STEPS_TABLE} (tag) VALUES ($1) ON CONFLICT (tag) DO NOTHING`, [step.tag]);
  }
}

async function dropIfInvalid(run: RunStatement, index: string): Promise<void> {
  const [found] = (
    await run('SELECT indisvalid AS valid FROM pg_index WHERE indexrelid = to_regclass(quote_ident($1))', [
      index,
    ])
  ).rows as Array<{ valid: boolean }>;
  if (found?.valid === false) await run(`DROP INDEX CONCURRENTLY IF EXISTS "${index}"`);
}

/**
 * drizzle's separator, whole-line comments left out; a statement that would not survive a second
 * run is refused before any runs.
 */
function statementsOf(text: string, path: string): string[] {
  const statements = text
    .split('--> statement-breakpoint')
    .map((chunk) => chunk.replace(/^\s*--.*$/gm, '').trim())
    .filter((statement) => statement !== '');
  for (const statement of statements) {
    if (CREATE_INDEX.test(statement) && !CONCURRENT_INDEX.test(statement)) {
      throw new Error(
        `${path}: an online step builds indexes with CREATE INDEX CONCURRENTLY IF NOT EXISTS "<name>" ` +
          `(it runs again after a kill): ${statement.slice(0, 80)}`,
      );
    }
  }
  return statements;
}
