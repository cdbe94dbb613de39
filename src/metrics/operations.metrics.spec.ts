import { Registry } from 'prom-client';
import {
  HttpOperationsGateway,
  type OperationsCallObserver,
  type OperationsCircuitState,
} from '../operations/http/http-operations.gateway.js';
import { OperationsMetrics } from './operations.metrics.js';

/** An HTTP gateway as far as the metrics can tell: its observer hook and circuit state. */
function fakeHttpGateway() {
  const observers: OperationsCallObserver[] = [];
  let circuit: OperationsCircuitState = 'closed';
  const gateway = Object.create(HttpOperationsGateway.prototype) as HttpOperationsGateway;
  Object.defineProperty(gateway, 'circuitState', { get: () => circuit });
  gateway.addObserver = (observer) => {
    observers.push(observer);
    return () => observers.splice(observers.indexOf(observer), 1);
  };
  return {
    gateway,
    observers,
    setCircuit: (state: OperationsCircuitState) => (circuit = state),
  };
}

describe(OperationsMetrics.name, () => {
  it('counts upstream calls by operation, outcome and failure kind, and reports the circuit', async () => {
    const registry = new Registry();
    const { gateway, observers, setCircuit } = fakeHttpGateway();
    const sut = new OperationsMetrics(registry, gateway);
    sut.onModuleInit();

    observers[0]?.callFinished?.({
      operation: 'getProcessDetail',
      outcome: 'success',
      failure: null,
      durationMs: 12,
      responseBytes: 4096,
    });
    observers[0]?.callFinished?.({
      operation: 'getProcessDetail',
      outcome: 'failure',
      failure: 'timeout',
      durationMs: 2000,
      responseBytes: 0,
    });
    setCircuit('open');

    const text = await registry.metrics();
    expect(text).toContain(
      'operations_upstream_calls_total{operation="getProcessDetail",outcome="success",failure="none"} 1',
    );
    expect(text).toContain(
      'operations_upstream_calls_total{operation="getProcessDetail",outcome="failure",failure="timeout"} 1',
    );
    expect(text).toContain(
      'operations_upstream_call_duration_seconds_count{operation="getProcessDetail",outcome="failure"} 1',
    );
    expect(text).toContain('operations_circuit_state 2');
    expect(text).toContain('operations_upstream_response_bytes_total{operation="getProcessDetail"} 4096');

    sut.onModuleDestroy();
    expect(observers).toHaveLength(0);
  });

  it('registers nothing for the built-in simulator', async () => {
    const registry = new Registry();
    new OperationsMetrics(registry, {} as HttpOperationsGateway).onModuleInit();
    expect((await registry.metrics()).trim()).toBe('');
  });
});
