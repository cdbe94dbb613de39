import { register } from 'node:module';
import { ExpressInstrumentation, ExpressLayerType } from '@opentelemetry/instrumentation-express';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { IORedisInstrumentation } from '@opentelemetry/instrumentation-ioredis';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { PinoInstrumentation } from '@opentelemetry/instrumentation-pino';
import { NodeSDK } from '@opentelemetry/sdk-node';
import { createAddHookMessageChannel } from 'import-in-the-middle';

/** The `service.name` of the spans unless `OTEL_SERVICE_NAME` says otherwise. */
export const DEFAULT_SERVICE_NAME = 'process-lookup';

/**
 * Starts the OpenTelemetry SDK: traces only, exported over OTLP as the standard `OTEL_*`
 * variables say (endpoint, protocol, sampler, batch delays), with spans for HTTP requests in and
 * out, database statements and Redis commands, and the current trace in every pino log line.
 */
export async function startTracing(): Promise<void> {
  // The service is ES modules: import-in-the-middle's loader hook lets the instrumentations patch
  // modules loaded with `import`. It wraps only the modules they ask for, so the rest load as usual.
  const { registerOptions, waitForAllMessagesAcknowledged } = createAddHookMessageChannel();
  register('import-in-the-middle/hook.mjs', import.meta.url, registerOptions);
  const sdk = new NodeSDK({
    serviceName: process.env.OTEL_SERVICE_NAME ?? DEFAULT_SERVICE_NAME,
    instrumentations: [
      new HttpInstrumentation(),
      // No span per Express middleware (a dozen a request); the request's span still takes the
      // route template as its name from this instrumentation.
      new ExpressInstrumentation({ ignoreLayersType: Object.values(ExpressLayerType) }),
      // Background work (sync, deliveries, leases) outside a traced request makes no trace of its
      // own for every statement or command; taking a pooled connection is no span of its own.
      new PgInstrumentation({ requireParentSpan: true, ignoreConnectSpans: true }),
      new IORedisInstrumentation({ requireParentSpan: true }),
      // Log lines carry trace_id and span_id; the logs themselves stay on stdout.
      new PinoInstrumentation({ disableLogSending: true }),
    ],
    // Metrics stay with Prometheus at /metrics and logs on stdout; the SDK would otherwise export both.
    metricReaders: [],
    logRecordProcessors: [],
  });
  sdk.start();
  await waitForAllMessagesAcknowledged();
}
