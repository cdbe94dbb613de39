import { SpanKind, SpanStatusCode, trace, type Span } from '@opentelemetry/api';
import pg from 'pg';

const tracer = trace.getTracer('process-lookup-database');

type Query = (...args: unknown[]) => unknown;
type Callback = (error: Error | null, result?: unknown) => void;

/**
 * node-postgres's client, with a client span for each statement run inside a traced request (or a
 * webhook attempt): named by its prepared statement (`process_page_671aaa758b8446ee`) or its
 * command and database (`SELECT process_lookup`), with the stable database attributes and the
 * statement's text, never its values. Work outside a trace (sync, leases, migrations) makes none,
 * and without tracing configured nothing is ever recorded.
 *
 * The pg instrumentation would do the same by patching the module; measured on a list request, its
 * wrappers (the query config copied, a duration metric, every callback bound to the context) cost
 * twice the CPU of the spans themselves.
 */
export class TracedPgClient extends pg.Client {
  constructor(config?: string | pg.ClientConfig) {
    super(config);
    const untraced = super.query.bind(this) as Query;
    // pg's query takes at most three arguments, and treats one left undefined as one not given:
    // named parameters spare every untraced statement a rest array and a spread.
    this.query = ((config: unknown, values?: unknown, callback?: unknown) =>
      trace.getActiveSpan() === undefined
        ? untraced(config, values, callback)
        : this.traced(untraced, config, values, callback)) as pg.Client['query'];
  }

  private traced(untraced: Query, config: unknown, values: unknown, callback: unknown): unknown {
    const text: unknown = typeof config === 'string' ? config : (config as pg.QueryConfig | null)?.text;
    // No statement to name: pg refuses it with its own error.
    if (typeof text !== 'string') return untraced(config, values, callback);
    const prepared = (config as pg.QueryConfig).name;
    const operation = prepared ?? [commandOf(text), this.database].filter(Boolean).join(' ');
    const span = tracer.startSpan(operation, {
      kind: SpanKind.CLIENT,
      attributes: {
        'db.system.name': 'postgresql',
        'db.namespace': this.database,
        'server.address': this.host,
        'server.port': this.port,
        'db.query.text': text,
      },
    });
    // pg-pool passes a callback, after the values or in their place; drizzle, in a transaction,
    // awaits the promise.
    const [boundValues, done] = typeof values === 'function' ? [undefined, values] : [values, callback];
    if (typeof done === 'function') {
      return untraced(config, boundValues, (error: Error | null, result?: unknown) => {
        endStatementSpan(span, error);
        (done as Callback)(error, result);
      });
    }
    const result = untraced(config, values);
    if (result instanceof Promise)
      result.then(
        () => endStatementSpan(span, null),
        (error: Error) => endStatementSpan(span, error),
      );
    else endStatementSpan(span, null); // a submittable (a cursor, a stream): its span is its start
    return result;
  }
}

/** The statement's first keyword, as the span name's operation: `SELECT`, `UPDATE`, `BEGIN`... */
function commandOf(text: string): string {
  const trimmed = text.trimStart();
  const end = trimmed.search(/[\s;(]/);
  return (end === -1 ? trimmed : trimmed.slice(0, end)).toUpperCase();
}

function endStatementSpan(span: Span, error: Error | null): void {
  if (error !== null) {
    const code = (error as { code?: unknown }).code;
    if (typeof code === 'string') span.setAttribute('error.type', code);
    span.setStatus({ code: SpanStatusCode.ERROR, message: error.message });
  }
  span.end();
}
