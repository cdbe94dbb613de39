import 'reflect-metadata';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { captureListStatements, criteriaOf } from './list-statements.js';

/**
 * The floor to compare the service with: `node:http` + `pg`, no framework, no validation, no
 * auth, answering every request with the list the service gives for one query string and one
 * visibility, from the same two statements (captured from the service's repository at start-up)
 * and serialised to the same JSON bytes. Forked by the harness; reports its port over IPC.
 *
 * Environment: DATABASE_URL, BASELINE_QUERY (e.g. `pageSize=100`), BASELINE_CUSTOMERS (comma-
 * separated customer ids; empty for staff).
 */

/** Dates and instants stay the strings PostgreSQL sends, as drizzle's node-postgres driver keeps them. */
const AS_TEXT = new Set([1082, 1114, 1184, 1186, 1115, 1182, 1185, 1187, 1231]);
const identity = (value: string): string => value;
const types = {
  getTypeParser: (oid: number, format?: 'text' | 'binary'): ((value: string) => unknown) =>
    AS_TEXT.has(oid)
      ? identity
      : (pg.types.getTypeParser(oid, format ?? 'text') as (value: string) => unknown),
};

type Row = [
  string,
  string,
  string,
  string,
  string,
  string,
  string,
  string | null,
  string,
  string,
  string,
  string,
  string | null,
  string | null,
  string | null,
  string | null,
  number,
  string[],
  Array<Record<string, unknown>>,
];

const url = process.env.DATABASE_URL;
if (url === undefined) throw new Error('DATABASE_URL is required');
const queryString = process.env.BASELINE_QUERY ?? '';
const customers = (process.env.BASELINE_CUSTOMERS ?? '').split(',').filter((id) => id !== '');
const visibility = { customerIds: customers.length === 0 ? null : customers };

// The service's pool size.
const pool = new pg.Pool({ connectionString: url, max: 10, application_name: 'bench-baseline', types });
const statements = await captureListStatements(pool, queryString, visibility);
const { page, pageSize } = criteriaOf(queryString);
const pageQuery = statements.page === null ? null : { ...statements.page, rowMode: 'array' as const };

async function answer(): Promise<string> {
  const counted = await pool.query<{ totalItems: number }>(statements.count.text, statements.count.values);
  const totalItems = Number(Object.values(counted.rows[0] ?? { n: 0 })[0]);
  let data: unknown[] = [];
  if (pageQuery !== null && (page - 1) * pageSize < totalItems) {
    const result = await pool.query<Row>({
      text: pageQuery.text,
      values: pageQuery.values,
      rowMode: 'array',
    });
    data = result.rows.map((row) => ({
      numero: row[0],
      status: row[1],
      updatedAt: row[2],
      summary: {
        type: row[3],
        mode: row[4],
        customer: { id: row[5], name: row[6] },
        customerReference: row[7],
        origin: { code: row[8], name: row[9] },
        destination: { code: row[10], name: row[11] },
        shipmentDate: row[12],
        eta: row[13],
        arrivalDate: row[14],
        containers: row[17],
        customsChannel: row[15],
        followCount: row[16],
      },
      lastFollow: row[18].at(-1) ?? null,
      follow: row[18],
    }));
  }
  return JSON.stringify({
    data,
    meta: { page, pageSize, totalItems, totalPages: Math.ceil(totalItems / pageSize) },
  });
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
