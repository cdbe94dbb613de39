import { drizzle } from 'drizzle-orm/node-postgres';
import type pg from 'pg';
import type { DatabaseService } from '../src/database/database.service.js';
import * as schema from '../src/database/schema.js';
import { ListProcessesQueryDto } from '../src/processes/dto/list-processes.query.dto.js';
import type { Visibility } from '../src/domain/authenticated-user.js';
import { ProcessesRepository } from '../src/processes/processes.repository.js';
import { ChangesRepository } from '../src/changes/changes.repository.js';

/** The feed's page size in the bench: what `changes-page-100` asks for, and its baseline answers. */
export const FEED_PAGE_LIMIT = 100;

export interface Statement {
  text: string;
  values: unknown[];
}

export interface ListStatements {
  count: Statement;
  /** Absent when the page is past the last (the repository then skips it). */
  page: Statement | null;
}

/**
 * The exact statements the service's ProcessesRepository runs for a list query string, captured
 * from drizzle's logger while running them once: the baseline server and EXPLAIN use these, so
 * they follow any change to the repository.
 */
export async function captureListStatements(
  client: pg.Pool | pg.Client,
  queryString: string,
  visibility: Visibility,
): Promise<ListStatements> {
  const captured: Statement[] = [];
  const db = drizzle(client, {
    schema,
    logger: { logQuery: (text, values) => void captured.push({ text, values }) },
  });
  const repository = new ProcessesRepository({ db } as unknown as DatabaseService);
  await repository.list(criteriaOf(queryString), visibility);
  const [count, page] = captured;
  if (count === undefined) throw new Error('the repository ran no statement');
  return { count, page: page ?? null };
}

/** A query string as the controller turns it into criteria (assumed valid here). */
export function criteriaOf(queryString: string) {
  const dto = Object.assign(
    new ListProcessesQueryDto(),
    Object.fromEntries(new URLSearchParams(queryString)),
  ) as ListProcessesQueryDto;
  return dto.toCriteria();
}

/** The statement ChangesRepository runs for a page of the feed after `position` (with the feed's extent), captured likewise. */
export async function captureChangesStatement(
  client: pg.Pool | pg.Client,
  position: number,
  limit: number,
  visibility: Visibility,
): Promise<Statement> {
  const captured: Statement[] = [];
  const db = drizzle(client, {
    schema,
    logger: { logQuery: (text, values) => void captured.push({ text, values }) },
  });
  await new ChangesRepository({ db } as unknown as DatabaseService).page(position, limit, visibility);
  const [page] = captured;
  if (page === undefined) throw new Error('the repository ran no statement');
  return page;
}
