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

/** Where metrics attach; every method is optional. */
export interface OperationsCallObserver {
  callFinished?(event: OperationsCallEvent): void;
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
