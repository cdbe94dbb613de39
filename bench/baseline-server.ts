import 'reflect-metadata';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { decodeCursor, encodeCursor } from '../src/changes/change-cursor.js';
import { applySessionSettings } from '../src/database/session-settings.js';
import {
  captureChangesStatement,
  captureListStatements,
  criteriaOf,
  FEED_PAGE_LIMIT,
} from './list-statements.js';

/**
 * The floor to compare the service with: `node:http` + `pg`, no framework, no validation, no
 * auth. `/api/changes?after=<cursor>` answers the feed's page of {@link FEED_PAGE_LIMIT} after
 * the cursor; any other request gets the list the service gives for one query string. Both for
 * one visibility, from the service's own statements (captured from its repositories at start-up),
 * into the same JSON bytes. Forked by the harness; reports its port over IPC.
 *
 * Environment: DATABASE_URL, BASELINE_QUERY (e.g. `pageSize=100`), BASELINE_CUSTOMERS (comma-
 * separated customer ids; empty for staff).
 */

/** One column: the item's JSON text, rendered by the statement. */
type Row = [string];
/** The feed page statement's columns: the head's extent, then the page. */
type FeedRow = [string, string, string | null, string | null, boolean];

const url = process.env.DATABASE_URL;
if (url === undefined) throw new Error('DATABASE_URL is required');
const queryString = process.env.BASELINE_QUERY ?? '';
const customers = (process.env.BASELINE_CUSTOMERS ?? '').split(',').filter((id) => id !== '');
const visibility = { customerIds: customers.length === 0 ? null : customers };

// The service's pool size and session settings.
const pool = new pg.Pool({
  connectionString: url,
  max: 10,
  application_name: 'bench-baseline',
  // eslint-disable-next-line @typescript-eslint/no-misused-promises
  onConnect: (client: pg.ClientBase) => applySessionSettings(client),
});
const statements = await captureListStatements(pool, queryString, visibility);
const { page, pageSize } = criteriaOf(queryString);
const pageQuery = statements.page === null ? null : { ...statements.page, rowMode: 'array' as const };
// Captured after a position no feed reaches, to find which value is the position.
const POSITION_SENTINEL = 987_654_321_987;
const feedStatement = await captureChangesStatement(pool, POSITION_SENTINEL, FEED_PAGE_LIMIT, visibility);
const feedPositionAt = feedStatement.values.indexOf(POSITION_SENTINEL);
if (feedPositionAt < 0) throw new Error('the feed statement binds no position');

async function answer(): Promise<string> {
  const counted = await pool.query<{ totalItems: number }>(statements.count.text, statements.count.values);
  const totalItems = Number(Object.values(counted.rows[0] ?? { n: 0 })[0]);
  let data: string[] = [];
  if (pageQuery !== null && (page - 1) * pageSize < totalItems) {
    const result = await pool.query<Row>(pageQuery);
    data = result.rows.map((row) => row[0]);
  }
  const meta = { page, pageSize, totalItems, totalPages: Math.ceil(totalItems / pageSize) };
  return `{"data":[${data.join(',')}],"meta":${JSON.stringify(meta)}}`;
}

/** The service's page after `position`, without its checks (the cursor is the harness's own). */
async function feedPage(position: number): Promise<string> {
  const values = feedStatement.values.with(feedPositionAt, position);
  const result = await pool.query<FeedRow>({ text: feedStatement.text, values, rowMode: 'array' });
  const [, , pageLastPosition, items, hasMore] = result.rows[0]!;
  const next = encodeCursor(pageLastPosition === null ? position : Number(pageLastPosition));
  return `{"data":[${items ?? ''}],"next":"${next}","hasMore":${hasMore}}`;
}

function answerTo(requestUrl: string): Promise<string> {
  const url = new URL(requestUrl, 'http://baseline');
  if (url.pathname !== '/api/changes') return answer();
  const position = decodeCursor(url.searchParams.get('after') ?? '');
  if (position === null) return Promise.reject(new Error('a feed page needs ?after=<cursor>'));
  return feedPage(position);
}

const server = createServer((req, res) => {
  answerTo(req.url ?? '/').then(
    (body) => {
      res.writeHead(200, {
        'Content-Type': 'application/json; charset=utf-8',
        'Content-Length': Buffer.byteLength(body),
      });
      res.end(body);
    },
    (error: unknown) => {
      res.writeHead(500, { 'Content-Type': 'text/plain' });
      res.end(String(error));
    },
  );
});
server.listen(0, '127.0.0.1', () => {
  process.send?.({ port: (server.address() as AddressInfo).port });
});
process.on('disconnect', () => {
  server.close();
  void pool.end().finally(() => process.exit(0));
});
