import { register } from 'node:module';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { IORedisInstrumentation } from '@opentelemetry/instrumentation-ioredis';
import { PinoInstrumentation } from '@opentelemetry/instrumentation-pino';
import { NodeSDK } from '@opentelemetry/sdk-node';
import { createAddHookMessageChannel } from 'import-in-the-middle';
import { runBeforeExit } from '../lifecycle/exit-hooks.js';

/** The `service.name` of the spans unless `OTEL_SERVICE_NAME` says otherwise. */
const DEFAULT_SERVICE_NAME = 'process-lookup';

/**
 * Starts the OpenTelemetry SDK: traces only, exported over OTLP as the standard `OTEL_*`
 * variables say (endpoint, protocol, sampler, batch delays), with spans for HTTP requests in and
 * out and Redis commands, and the current trace in every pino log line; database statements are
 * spans of `TracedPgClient`.
 * Requests in get their span from `serverSpanMiddleware`, installed by the app when tracing is on.
 */
export async function startTracing(): Promise<void> {
  // The service is ES modules: import-in-the-middle's loader hook lets the instrumentations patch
  // modules loaded with `import`. It wraps only the modules they ask for, so the rest load as usual.
  const { registerOptions, waitForAllMessagesAcknowledged } = createAddHookMessageChannel();
  register('import-in-the-middle/hook.mjs', import.meta.url, registerOptions);
  const sdk = new NodeSDK({
    serviceName: process.env.OTEL_SERVICE_NAME ?? DEFAULT_SERVICE_NAME,
    instrumentations: [
      // Calls out only (the operations system, webhook receivers): each request's own span is
      // started by `serverSpanMiddleware`, which costs far less than the instrumentation's.
      new HttpInstrumentation({ disableIncomingRequestInstrumentation: true }),
      // Background work (sync, deliveries, leases) outside a traced request makes no trace of its
      // own for every command. The command's name, not its arguments: the rate limiter's is a Lua
      // script a request. (Statements get their spans from `TracedPgClient`, the database's client.)
      new IORedisInstrumentation({ requireParentSpan: true, dbStatementSerializer: (command) => command }),
      // Log lines carry trace_id and span_id; the logs themselves stay on stdout.
      new PinoInstrumentation({ disableLogSending: true }),
    ],
    // Metrics stay with Prometheus at /metrics and logs on stdout; the SDK would otherwise export both.
    metricReaders: [],
    logRecordProcessors: [],
  });
  sdk.start();
  runBeforeExit(() => sdk.shutdown());
  await waitForAllMessagesAcknowledged();
}
