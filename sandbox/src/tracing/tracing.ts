import { register } from 'node:module';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { NodeSDK } from '@opentelemetry/sdk-node';
import { createAddHookMessageChannel } from 'import-in-the-middle';
import { runBeforeExit } from '../exit-hooks.js';

/**
 * Traces only, over OTLP as the standard `OTEL_*` variables say, with a span for each HTTP request
 * the sandbox answers (child of the caller's span when it sends a `traceparent`) and each it sends
 * (its change notifications). A stopped sandbox exports what its batch still holds before it exits.
 */
export async function startTracing(): Promise<void> {
  // ES modules: import-in-the-middle's loader hook lets the instrumentation patch `node:http`.
  const { registerOptions, waitForAllMessagesAcknowledged } = createAddHookMessageChannel();
  register('import-in-the-middle/hook.mjs', import.meta.url, registerOptions);
  const sdk = new NodeSDK({
    serviceName: process.env.OTEL_SERVICE_NAME ?? 'sandbox',
    instrumentations: [new HttpInstrumentation()],
    metricReaders: [],
    logRecordProcessors: [],
  });
  sdk.start();
  runBeforeExit(() => sdk.shutdown());
  await waitForAllMessagesAcknowledged();
}
