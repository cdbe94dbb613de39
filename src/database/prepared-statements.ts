import { createHash } from 'node:crypto';

/** A statement's placeholder values, by name. */
export type StatementValues = Record<string, unknown>;

/** A statement prepared once per shape, executed with each request's values. */
export interface PreparedRead<Row> {
  execute(values: StatementValues): Promise<Row[]>;
}

/** The statement prepared for `shape`, preparing it the first time. */
export function preparedOnce<K, V>(prepared: Map<K, V>, shape: K, prepare: () => V): V {
  let statement = prepared.get(shape);
  if (statement === undefined) {
    statement = prepare();
    prepared.set(shape, statement);
  }
  return statement;
}

/**
 * Named after its text: a connection keeps a prepared statement per name, so equal names must
 * mean equal statements, whichever repository instance prepared them. PostgreSQL then parses and
 * plans it once per connection instead of once per request.
 */
export function prepared<Row>(
  kind: string,
  query: { toSQL(): { sql: string }; prepare(name: string): PreparedRead<Row> },
): PreparedRead<Row> {
  const textHash = createHash('sha256').update(query.toSQL().sql).digest('hex').slice(0, 16);
  return query.prepare(`${kind}_${textHash}`);
}
