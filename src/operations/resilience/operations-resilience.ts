import type { UpstreamFailureKind } from './upstream-attempt.error.js';

export type OperationsCircuitState = 'closed' | 'open' | 'half-open' | 'isolated';
export type OperationsOperation = 'listChangedProcesses' | 'getProcessDetail';

export interface OperationsCallEvent {
  operation: OperationsOperation;
  outcome: 'success' | 'not-found' | 'failure';
  /** Set when `outcome` is `failure`. */
  failure: UpstreamFailureKind | null;
  durationMs: number;
  /** Response bytes the adapter read over every attempt of the call. */
  responseBytes: number;
}

/**
 * One request to the operations system (a call makes one per attempt), or a call the circuit or
 * the bulkhead refused before sending any: what `operations_upstream_calls_total` counts, so that
 * the timeouts and network failures that open the circuit are seen, not only the refusals after.
 */
export interface OperationsAttemptEvent {
  operation: OperationsOperation;
  outcome: OperationsCallEvent['outcome'];
  failure: UpstreamFailureKind | null;
}

/** Where metrics attach; every method is optional. */
export interface OperationsCallObserver {
  callFinished?(event: OperationsCallEvent): void;
  attemptFinished?(event: OperationsAttemptEvent): void;
  circuitStateChanged?(state: OperationsCircuitState): void;
}

/**
 * What metrics and readiness see of the resilience around the operations adapter, whatever the
 * adapter: its name, the circuit, and a hook on every call's outcome. The operations module
 * provides it under this class, or `null` when the gateway has no resilience around it.
 */
export abstract class OperationsResilience {
  /** The adapter's name as readiness reports it, e.g. `http`. */
  abstract readonly adapter: string;
  abstract readonly circuitState: OperationsCircuitState;
  /** Registers an observer; returns its removal. */
  abstract addObserver(observer: OperationsCallObserver): () => void;
}
