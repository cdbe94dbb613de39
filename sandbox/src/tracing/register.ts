// The sandbox's `--import` module (`npm start` adds it when tracing is configured): with
// OTEL_EXPORTER_OTLP_ENDPOINT set, its HTTP server continues the traces of the requests it gets, as
// a traced operations system would; unset, nothing of OpenTelemetry is loaded.
if ((process.env.OTEL_EXPORTER_OTLP_ENDPOINT ?? '') !== '') {
  const { startTracing } = await import('./tracing.js');
  await startTracing();
}
