import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { sql } from 'drizzle-orm';
import { MIGRATIONS_FOLDER, type Database } from './database.service.js';
import { onlineSteps, pendingOnlineSteps } from './online-migrations.js';
import { rowsOf } from './sql-rows.js';

interface JournalEntry {
  tag: string;
  /** When drizzle-kit generated the migration, in ms: what drizzle records once it is applied. */
  when: number;
}

/**
 * The migrations of this release not applied to the database yet, oldest first, by tag
 * (`0015_process_list_items`), counting one whose online step has not finished (its indexes
 * missing). One applied by a later release is no concern of this one.
 */
export async function pendingMigrations(db: Database): Promise<string[]> {
  try {
    return await pendingIn(db);
  } catch (error) {
    // The first statement of start-up: a database out of reach says so (ECONNREFUSED) in the
    // driver's error, which drizzle wraps in one that only quotes the statement.
    throw error instanceof Error && error.cause instanceof Error ? error.cause : error;
  }
}

async function pendingIn(db: Database): Promise<string[]> {
  const [bookkeeping] = await rowsOf<{ present: boolean }>(
    db,
    sql`SELECT to_regclass('drizzle.__drizzle_migrations') IS NOT NULL AS present`,
  );
  let lastApplied = -Infinity;
  if (bookkeeping?.present === true) {
    const [applied] = await rowsOf<{ last: string | null }>(
      db,
      sql`SELECT max(created_at)::text AS last FROM drizzle.__drizzle_migrations`,
    );
    if (applied?.last != null) lastApplied = Number(applied.last);
  }
  const unfinished = new Set(
    await pendingOnlineSteps(
      async (text) => ({ rows: await rowsOf<unknown>(db, sql.raw(text)) }),
      onlineSteps(MIGRATIONS_FOLDER),
    ),
  );
  // drizzle's own rule: a migration counts as applied when it is no newer than the newest applied.
  return migrationJournal()
    .filter((entry) => entry.when > lastApplied || unfinished.has(entry.tag))
    .map((entry) => entry.tag);
}

/** Refuses a database that lacks migrations of this release, saying what to run. */
export async function requireMigrated(db: Database): Promise<void> {
  const pending = await pendingMigrations(db);
  if (pending.length === 0) return;
  throw new Error(
    `the database is not migrated: ${pending.length} migration(s) of this release are not applied ` +
      `(${pending[0]} first); run \`npm run migrate\` with this release, then start the service`,
  );
}

/** The migrations of this release, as drizzle-kit lists them beside the SQL files. */
function migrationJournal(): JournalEntry[] {
  const journal = JSON.parse(readFileSync(resolve(MIGRATIONS_FOLDER, 'meta/_journal.json'), 'utf8')) as {
    entries: JournalEntry[];
  };
  return journal.entries;
}
