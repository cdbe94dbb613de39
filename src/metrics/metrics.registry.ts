import { collectDefaultMetrics, Registry } from 'prom-client';

/**
 * The service's own registry (not prom-client's global one, so two applications in one process,
 * as in tests, never share or double-register metrics), with the default process metrics:
 * CPU, resident memory, heap, event loop lag, handles.
 */
export function createMetricsRegistry(): Registry {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  return registry;
}
