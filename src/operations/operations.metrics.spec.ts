import { Registry } from 'prom-client';
import type {
  OperationsCallObserver,
  OperationsCircuitState,
  OperationsResilience,
} from './resilience/operations-resilience.js';
import { OperationsMetrics } from './operations.metrics.js';

/** The resilience around an adapter as far as the metrics can tell: its observer hook and circuit state. */
function fakeResilience() {
  const observers: OperationsCallObserver[] = [];
  let circuit: OperationsCircuitState = 'closed';
  const resilience: OperationsResilience = {
    adapter: 'any',
    get circuitState() {
      return circuit;
    },
    addObserver: (observer) => {
      observers.push(observer);
      return () => observers.splice(observers.indexOf(observer), 1);
    },
  };
  return {
    resilience,
    observers,
    setCircuit: (state: OperationsCircuitState) => (circuit = state),
  };
}

describe(OperationsMetrics.name, () => {
  it('counts upstream requests by operation, outcome and failure kind, times calls, and reports the circuit', async () => {
    const registry = new Registry();
    const { resilience, observers, setCircuit } = fakeResilience();
    const sut = new OperationsMetrics(registry, resilience);
    sut.onModuleInit();

    observers[0]?.attemptFinished?.({ operation: 'getProcessDetail', outcome: 'success', failure: null });
    observers[0]?.attemptFinished?.({
      operation: 'getProcessDetail',
      outcome: 'failure',
      failure: 'timeout',
    });
    observers[0]?.attemptFinished?.({
      operation: 'getProcessDetail',
      outcome: 'failure',
      failure: 'timeout',
    });
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
      'operations_upstream_calls_total{operation="getProcessDetail",outcome="failure",failure="timeout"} 2',
    );
    expect(text).toContain(
      'operations_upstream_call_duration_seconds_count{operation="getProcessDetail",outcome="failure"} 1',
    );
    expect(text).toContain('operations_circuit_state 2');
    expect(text).toContain('operations_upstream_response_bytes_total{operation="getProcessDetail"} 4096');

    sut.onModuleDestroy();
    expect(observers).toHaveLength(0);
  });

  it('registers nothing for a gateway without resilience (a test double)', async () => {
    const registry = new Registry();
    new OperationsMetrics(registry, null).onModuleInit();
    expect((await registry.metrics()).trim()).toBe('');
  });
});
