import { Inject, Injectable, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import {
  OperationsResilience,
  type OperationsAttemptEvent,
  type OperationsCallEvent,
  type OperationsCircuitState,
} from './resilience/operations-resilience.js';

/** `operations_circuit_state` values: higher is worse. */
export const CIRCUIT_STATE_VALUES: Record<OperationsCircuitState, number> = {
  closed: 0,
  'half-open': 1,
  open: 2,
  isolated: 3,
};

/**
 * Requests to the operations system by operation and outcome (with the failure kind: each
 * attempt of a call, and each call refused by the circuit or the bulkhead), the calls' durations,
 * and the circuit state, as the resilience around the adapter reports them. A test double put
 * in place of the gateway has none, and these metrics are then not registered.
 */
@Injectable()
export class OperationsMetrics implements OnModuleInit, OnModuleDestroy {
  private removeObserver: (() => void) | null = null;

  constructor(
    private readonly registry: Registry,
    @Inject(OperationsResilience) private readonly resilience: OperationsResilience | null,
  ) {}

  onModuleInit(): void {
    const resilience = this.resilience;
    if (resilience === null) return;
    const calls = new Counter({
      name: 'operations_upstream_calls_total',
      help: 'Requests to the operations system (each attempt of a call; a call the circuit or bulkhead refused counts once), by operation, outcome (success, not-found, failure) and failure kind',
      labelNames: ['operation', 'outcome', 'failure'],
      registers: [this.registry],
    });
    const duration = new Histogram({
      name: 'operations_upstream_call_duration_seconds',
      help: 'Duration of a call to the operations system, retries included, by operation and outcome',
      labelNames: ['operation', 'outcome'],
      buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [this.registry],
    });
    const bytes = new Counter({
      name: 'operations_upstream_response_bytes_total',
      help: 'Response bytes read from the operations system (each response capped), by operation',
      labelNames: ['operation'],
      registers: [this.registry],
    });
    const circuit: Gauge = new Gauge({
      name: 'operations_circuit_state',
      help: 'Circuit breaker towards the operations system: 0 closed, 1 half-open, 2 open, 3 isolated',
      registers: [this.registry],
      collect: () => circuit.set(CIRCUIT_STATE_VALUES[resilience.circuitState]),
    });
    this.removeObserver = resilience.addObserver({
      attemptFinished: (event: OperationsAttemptEvent) => {
        calls.inc({ operation: event.operation, outcome: event.outcome, failure: event.failure ?? 'none' });
      },
      callFinished: (event: OperationsCallEvent) => {
        duration.observe({ operation: event.operation, outcome: event.outcome }, event.durationMs / 1000);
        bytes.inc({ operation: event.operation }, event.responseBytes);
      },
    });
  }

  onModuleDestroy(): void {
    this.removeObserver?.();
  }
}
