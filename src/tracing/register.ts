// The service's `--import` module (see `npm start`), evaluated before the service's own modules:
// with OTEL_EXPORTER_OTLP_ENDPOINT set, tracing starts here, early enough for its instrumentations
// to patch the modules the service then imports; unset, nothing of OpenTelemetry is loaded.
import { existsSync } from 'node:fs';

if (existsSync('.env')) process.loadEnvFile('.env');
if ((process.env.OTEL_EXPORTER_OTLP_ENDPOINT ?? '') !== '') {
  const { startTracing } = await import('./tracing.js');
  await startTracing();
}
