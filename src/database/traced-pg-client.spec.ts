import { jest } from '@jest/globals';
import { context, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import pg from 'pg';
import { TracedPgClient } from './traced-pg-client.js';

const exporter = new InMemorySpanExporter();
const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
const contextManager = new AsyncLocalStorageContextManager();
const requestTracer = provider.getTracer('request');

/** A client whose statements never reach a server: each answers as `answer` says. */
function aClient(answer: (text: string) => Error | null) {
  const answering = (...args: unknown[]): unknown => {
    const [config] = args;
    const error = answer(
      typeof config === 'string' ? config : String((config as pg.QueryConfig | null)?.text),
    );
    // As pg reads its arguments: the callback after the values, or in their place.
    const callback = typeof args[1] === 'function' ? args[1] : args[2];
    if (typeof callback === 'function') {
      queueMicrotask(() =>
        (callback as (error: Error | null, result?: unknown) => void)(error, { rows: [] }),
      );
      return undefined;
    }
    return error === null ? Promise.resolve({ rows: [] }) : Promise.reject(error);
  };
  jest.spyOn(pg.Client.prototype, 'query').mockImplementation(answering);
  return new TracedPgClient({ host: 'db.internal', port: 6432, database: 'process_lookup' });
}

/** Runs `work` inside a request's span, as a traced request does. */
async function inRequest(work: () => Promise<unknown>) {
  const request = requestTracer.startSpan('GET /api/processes', { kind: SpanKind.SERVER });
  await context.with(trace.setSpan(context.active(), request), work);
  request.end();
  return request.spanContext().spanId;
}

const statementSpans = () => exporter.getFinishedSpans().filter((span) => span.kind === SpanKind.CLIENT);

describe(TracedPgClient.name, () => {
  beforeAll(() => {
    context.setGlobalContextManager(contextManager.enable());
    trace.setGlobalTracerProvider(provider);
  });

  afterEach(() => {
    exporter.reset();
    jest.restoreAllMocks();
  });

  afterAll(() => {
    trace.disable();
    context.disable();
  });

  it('makes a statement awaited inside a request a child span with its text and the database attributes', async () => {
    const client = aClient(() => null);

    const requestSpanId = await inRequest(() => client.query('SELECT 1 AS one', []));

    expect(statementSpans()).toMatchObject([
      {
        name: 'SELECT process_lookup',
        parentSpanContext: { spanId: requestSpanId },
        attributes: {
          'db.system.name': 'postgresql',
          'db.namespace': 'process_lookup',
          'server.address': 'db.internal',
          'server.port': 6432,
          'db.query.text': 'SELECT 1 AS one',
        },
        status: { code: SpanStatusCode.UNSET },
      },
    ]);
  });

  it('names a prepared statement’s span after it, and ends the span when a pool’s callback is answered', async () => {
    const client = aClient(() => null);
    const answered = jest.fn();

    await inRequest(
      () =>
        new Promise<void>((resolve) => {
          client.query({ name: 'process_page_671aaa758b8446ee', text: 'select 1', values: [] }, (error) => {
            answered(error);
            resolve();
          });
        }),
    );

    expect(answered).toHaveBeenCalledWith(null);
    expect(statementSpans().map((span) => span.name)).toEqual(['process_page_671aaa758b8446ee']);
  });

  it('marks a failed statement as an error with its SQLSTATE, and still passes the failure on', async () => {
    const failure = Object.assign(new Error('canceling statement due to statement timeout'), {
      code: '57014',
    });
    const client = aClient(() => failure);

    let rejection: unknown;

    await inRequest(() =>
      client.query('update processes set status = $1', ['CLOSED']).catch((error: unknown) => {
        rejection = error;
      }),
    );

    expect(rejection).toBe(failure);
    expect(statementSpans()).toMatchObject([
      {
        name: 'UPDATE process_lookup',
        attributes: { 'error.type': '57014' },
        status: { code: SpanStatusCode.ERROR, message: 'canceling statement due to statement timeout' },
      },
    ]);
  });

  it('leaves a call with no statement to pg, which refuses it with its own error', async () => {
    const client = aClient(() => null);

    await inRequest(() => client.query(null as unknown as string));

    expect(pg.Client.prototype.query).toHaveBeenCalledWith(null, undefined, undefined);
    expect(statementSpans()).toEqual([]);
  });

  it('makes no span for a statement outside a trace (sync, leases, migrations)', async () => {
    const client = aClient(() => null);

    await client.query('SELECT 1');

    expect(pg.Client.prototype.query).toHaveBeenCalledWith('SELECT 1', undefined, undefined);
    expect(exporter.getFinishedSpans()).toEqual([]);
  });
});
