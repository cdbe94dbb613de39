import type {
  ChangedProcessesPage,
  ChangedProcessesQuery,
  OperationsProcessDetail,
} from './operations.types.js';

/**
 * The port to the company's operations system (the client of an external system, not a
 * WebSocket gateway). The abstract class is its own injection token. Implementations speak
 * our types: "not found" is `null`; any failure to get a usable answer (timeout, 5xx, refused
 * connection, open circuit, garbage payload) is an {@link OperationsUnavailableError}.
 */
export abstract class OperationsGateway {
  abstract getProcessDetail(numero: string): Promise<OperationsProcessDetail | null>;
  abstract listChangedProcesses(query: ChangedProcessesQuery): Promise<ChangedProcessesPage>;
}

/** The operations system could not give a usable answer. */
export class OperationsUnavailableError extends Error {
  override readonly name = 'OperationsUnavailableError';

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}
