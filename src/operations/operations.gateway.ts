import type {
  ChangedProcessesPage,
  ChangedProcessesQuery,
  OperationsProcessDetail,
} from './operations.types.js';

/**
 * What a wrapper that bounds and measures each attempt (the `ResilientOperationsGateway`) hands
 * the adapter it wraps. Called directly, an adapter gets none.
 */
export interface OperationsAttempt {
  /** Aborted when this attempt's time is up: stop the request and settle. */
  readonly signal: AbortSignal;
  /** Adds response bytes read from the upstream, for the metrics. */
  countResponseBytes(bytes: number): void;
}

/**
 * The port to the company's operations system (the client of an external system, not a
 * WebSocket gateway). The abstract class is its own injection token. Implementations speak
 * our types: "not found" is `null`; any failure to get a usable answer (timeout, 5xx, refused
 * connection, open circuit, garbage payload) is an {@link OperationsUnavailableError}.
 */
export abstract class OperationsGateway {
  abstract getProcessDetail(
    numero: string,
    attempt?: OperationsAttempt,
  ): Promise<OperationsProcessDetail | null>;
  abstract listChangedProcesses(
    query: ChangedProcessesQuery,
    attempt?: OperationsAttempt,
  ): Promise<ChangedProcessesPage>;
}

/** The operations system could not give a usable answer. */
export class OperationsUnavailableError extends Error {
  override readonly name: string = 'OperationsUnavailableError';

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}
