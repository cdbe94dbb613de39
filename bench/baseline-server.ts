import 'reflect-metadata';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { captureListStatements, criteriaOf } from './list-statements.js';

/**
 * The floor to compare the service with: `node:http` + `pg`, no framework, no validation, no
 * auth, answering every request with the list the service gives for one query string and one
 * visibility, from the same two statements (captured from the service's repository at start-up),
 * the items joined as the statement renders them, into the same JSON bytes. Forked by the harness; reports its port over IPC.
 *
 * Environment: DATABASE_URL, BASELINE_QUERY (e.g. `pageSize=100`), BASELINE_CUSTOMERS (comma-
 * separated customer ids; empty for staff).
 */

/** One column: the item's JSON text, rendered by the statement. */
type Row = [string];

const url = process.env.DATABASE_URL;
if (url === undefined) throw new Error('DATABASE_URL is required');
const queryString = process.env.BASELINE_QUERY ?? '';
const customers = (process.env.BASELINE_CUSTOMERS ?? '').split(',').filter((id) => id !== '');
const visibility = { customerIds: customers.length === 0 ? null : customers };

// The service's pool size.
const pool = new pg.Pool({ connectionString: url, max: 10, application_name: 'bench-baseline' });
const statements = await captureListStatements(pool, queryString, visibility);
const { page, pageSize } = criteriaOf(queryString);
const pageQuery = statements.page === null ? null : { ...statements.page, rowMode: 'array' as const };

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

const server = createServer((_req, res) => {
  answer().then(
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
