import { OperationsUnavailableError } from '../operations.gateway.js';

/** How a call to the operations system went wrong; the label metrics and logs use. */
export type UpstreamFailureKind =
  | 'timeout'
  | 'network'
  | 'transport'
  | 'http-status'
  | 'redirect'
  | 'too-large'
  | 'payload'
  | 'circuit-open'
  | 'overloaded';

export interface UpstreamAttemptFailure {
  kind: UpstreamFailureKind;
  /** Worth another attempt within the same call. */
  transient: boolean;
  /** Evidence that the upstream is unhealthy, so the circuit breaker counts it. */
  upstreamFault: boolean;
  status?: number | null;
}

/**
 * One failed attempt of an adapter, classified for the {@link ResilientOperationsGateway}: retry
 * it or not, count it against the circuit or not. Its message is a whole sentence, as callers
 * read it (`Operations system answered 503`), described without the request: it must never
 * hold an upstream URL, a key or a client library's error (whose config carries both), so it is
 * safe as a `cause`. It is an {@link OperationsUnavailableError}, so an adapter used on its own
 * still keeps the port's contract.
 */
export class UpstreamAttemptError extends OperationsUnavailableError {
  override readonly name: string = 'UpstreamAttemptError';
  readonly kind: UpstreamFailureKind;
  readonly transient: boolean;
  readonly upstreamFault: boolean;
  readonly status: number | null;

  constructor(message: string, failure: UpstreamAttemptFailure) {
    super(message);
    this.kind = failure.kind;
    this.transient = failure.transient;
    this.upstreamFault = failure.upstreamFault;
    this.status = failure.status ?? null;
  }

  /** An answer that is not JSON, or not the shape the port promises: a fault, not retried. */
  static payload(message: string): UpstreamAttemptError {
    return new UpstreamAttemptError(message, { kind: 'payload', transient: false, upstreamFault: true });
  }

  /** The attempt ran out of time: retried, and a fault. */
  static timeout(): UpstreamAttemptError {
    return new UpstreamAttemptError('Operations system did not answer in time', {
      kind: 'timeout',
      transient: true,
      upstreamFault: true,
    });
  }
}
