import { Logger } from '@nestjs/common';
import {
  BrokenCircuitError,
  BulkheadRejectedError,
  CircuitState,
  ConsecutiveBreaker,
  ExponentialBackoff,
  TaskCancelledError,
  TimeoutStrategy,
  bulkhead,
  circuitBreaker,
  handleWhen,
  retry,
  timeout,
  wrap,
} from 'cockatiel';
import { ThrottledWarnings } from '../../logging/throttled-warnings.js';
import {
  OperationsGateway,
  OperationsUnavailableError,
  type OperationsAttempt,
} from '../operations.gateway.js';
import type {
  ChangedProcessesPage,
  ChangedProcessesQuery,
  OperationsProcessDetail,
} from '../operations.types.js';
import type {
  OperationsAttemptEvent,
  OperationsCallEvent,
  OperationsCallObserver,
  OperationsCircuitState,
  OperationsOperation,
  OperationsResilience,
} from './operations-resilience.js';
import { UpstreamAttemptError, type UpstreamFailureKind } from './upstream-attempt.error.js';

export interface OperationsResilienceOptions {
  /** Hard limit for one attempt, response included (`OPERATIONS_TIMEOUT_MS`). */
  attemptTimeoutMs: number;
  /** Hard limit for the whole call: every attempt and backoff. Never below one attempt. */
  deadlineMs: number;
  /** Further attempts after the first, for transient failures only. */
  maxRetries: number;
  /** First backoff delay; later ones grow exponentially with decorrelated jitter. */
  retryInitialDelayMs: number;
  retryMaxDelayMs: number;
  /** Consecutive upstream faults (timeouts, connection errors, 5xx, 429, garbage) that open the circuit. */
  breakerThreshold: number;
  /** How long the open circuit fails fast before one trial call is let through. */
  halfOpenAfterMs: number;
  /** Upstream requests in flight at once, and calls allowed to wait for a slot. */
  maxConcurrent: number;
  maxQueued: number;
}

/**
 * The budget: with the default 2000 ms per attempt the deadline is 5000 ms, which fits one hung
 * attempt, a backoff and most of a second attempt, or three fast failures (refused connection,
 * 503) with their backoffs (at most 1 s each). A caller therefore has an answer, data or
 * {@link OperationsUnavailableError}, within 2.5 attempt timeouts whatever the upstream does.
 * Five consecutive faults open the circuit for 10 s, so an outage costs each request
 * microseconds instead of the whole budget.
 */
export function defaultResilienceOptions(attemptTimeoutMs: number): OperationsResilienceOptions {
  return {
    attemptTimeoutMs,
    deadlineMs: Math.round(attemptTimeoutMs * 2.5),
    maxRetries: 2,
    retryInitialDelayMs: 100,
    retryMaxDelayMs: 1000,
    breakerThreshold: 5,
    halfOpenAfterMs: 10_000,
    maxConcurrent: 16,
    maxQueued: 64,
  };
}

const CIRCUIT_STATE_NAMES: Record<CircuitState, OperationsCircuitState> = {
  [CircuitState.Closed]: 'closed',
  [CircuitState.Open]: 'open',
  [CircuitState.HalfOpen]: 'half-open',
  [CircuitState.Isolated]: 'isolated',
};

/**
 * Any {@link OperationsGateway} adapter behind the resilience policies. Each attempt is bounded
 * by a timeout (the adapter gets its abort signal), the whole call by a deadline; transient
 * failures are retried with jittered exponential backoff; a circuit breaker fails fast through
 * an outage; a bulkhead bounds calls in flight. Every failure reaches the caller as an
 * {@link OperationsUnavailableError} that names neither a URL nor a key.
 *
 * The adapter's call runs inside the policies, parsing of the answer included, so an unusable
 * answer counts against the circuit like any other fault. The adapter says how an attempt
 * failed with an {@link UpstreamAttemptError}; any other {@link OperationsUnavailableError} it
 * throws (the payload parsers' "not the promised shape") is an unusable answer: a fault, not
 * retried. Anything else is a bug, passed through neither retried nor counted.
 */
export class ResilientOperationsGateway extends OperationsGateway implements OperationsResilience {
  private readonly logger = new Logger(ResilientOperationsGateway.name);
  // Under partial faults every degraded request fails: one line per kind and interval, not one each.
  private readonly failureWarnings = new ThrottledWarnings(this.logger, {
    subject: 'Operations system call failed',
  });
  private readonly breaker;
  private readonly policy;
  private readonly observers = new Set<OperationsCallObserver>();

  constructor(
    /** The adapter's name as readiness reports it, e.g. `http`. */
    readonly adapter: string,
    private readonly inner: OperationsGateway,
    options: OperationsResilienceOptions,
  ) {
    super();
    const resilience = { ...options, deadlineMs: Math.max(options.deadlineMs, options.attemptTimeoutMs) };

    const deadline = timeout(resilience.deadlineMs, TimeoutStrategy.Aggressive);
    const retries = retry(
      handleWhen((error) => isTimeout(error) || (error instanceof UpstreamAttemptError && error.transient)),
      {
        maxAttempts: resilience.maxRetries,
        backoff: new ExponentialBackoff({
          initialDelay: resilience.retryInitialDelayMs,
          maxDelay: resilience.retryMaxDelayMs,
        }),
      },
    ).dangerouslyUnref(); // a backoff left pending by the deadline must not hold the process open
    const limiter = bulkhead(resilience.maxConcurrent, resilience.maxQueued);
    // Inside the bulkhead: a rejected call says nothing about the upstream's health.
    this.breaker = circuitBreaker(
      handleWhen(
        (error) => isTimeout(error) || (error instanceof UpstreamAttemptError && error.upstreamFault),
      ),
      {
        halfOpenAfter: resilience.halfOpenAfterMs,
        breaker: new ConsecutiveBreaker(resilience.breakerThreshold),
      },
    );
    const attemptTimeout = timeout(resilience.attemptTimeoutMs, TimeoutStrategy.Aggressive);
    this.policy = wrap(deadline, retries, limiter, this.breaker, attemptTimeout);

    this.breaker.onStateChange((state) => {
      const name = CIRCUIT_STATE_NAMES[state];
      this.logger[name === 'open' ? 'warn' : 'log'](`Operations circuit ${name}`);
      for (const observer of this.observers) observer.circuitStateChanged?.(name);
    });
  }

  get circuitState(): OperationsCircuitState {
    return CIRCUIT_STATE_NAMES[this.breaker.state];
  }

  addObserver(observer: OperationsCallObserver): () => void {
    this.observers.add(observer);
    return () => this.observers.delete(observer);
  }

  getProcessDetail(numero: string): Promise<OperationsProcessDetail | null> {
    return this.call('getProcessDetail', (attempt) => this.inner.getProcessDetail(numero, attempt));
  }

  listChangedProcesses(query: ChangedProcessesQuery): Promise<ChangedProcessesPage> {
    return this.call('listChangedProcesses', (attempt) => this.inner.listChangedProcesses(query, attempt));
  }

  /** One call through the policies, each attempt a call of the adapter. */
  private async call<T>(
    operation: OperationsOperation,
    attempt: (attempt: OperationsAttempt) => Promise<T>,
  ): Promise<T> {
    const started = performance.now();
    let responseBytes = 0;
    const finished = (outcome: OperationsCallEvent['outcome'], failure: UpstreamFailureKind | null) =>
      this.notify((observer) =>
        observer.callFinished?.({
          operation,
          outcome,
          failure,
          durationMs: performance.now() - started,
          responseBytes,
        }),
      );
    const attempted = (outcome: OperationsAttemptEvent['outcome'], failure: UpstreamFailureKind | null) =>
      this.notify((observer) => observer.attemptFinished?.({ operation, outcome, failure }));
    try {
      const result = await this.policy.execute(async ({ signal }) => {
        try {
          const answer = await attempt({ signal, countResponseBytes: (bytes) => (responseBytes += bytes) });
          attempted(answer === null ? 'not-found' : 'success', null);
          return answer;
        } catch (error) {
          const attemptError = asAttemptError(error);
          attempted('failure', failureKindOf(attemptError));
          throw attemptError;
        }
      });
      finished(result === null ? 'not-found' : 'success', null);
      return result;
    } catch (error) {
      const [kind, failure] = toUnavailable(error);
      // Refused before any request was sent, so no attempt reported it.
      if (kind === 'circuit-open' || kind === 'overloaded') attempted('failure', kind);
      // Fast failures while the circuit is open are counted in the metrics; its opening is logged once.
      if (kind !== 'circuit-open') this.failureWarnings.warn(`${operation} (${kind})`, failure);
      finished('failure', kind);
      throw failure;
    }
  }

  private notify(tell: (observer: OperationsCallObserver) => void): void {
    for (const observer of this.observers) {
      try {
        tell(observer);
      } catch (error) {
        this.logger.warn(`Operations call observer failed: ${String(error)}`);
      }
    }
  }
}

function isTimeout(error: unknown): boolean {
  return (
    error instanceof TaskCancelledError || (error instanceof UpstreamAttemptError && error.kind === 'timeout')
  );
}

/** An adapter's "no usable answer" that it did not classify further is a garbage answer. */
function asAttemptError(error: unknown): unknown {
  if (error instanceof UpstreamAttemptError || !(error instanceof OperationsUnavailableError)) return error;
  return UpstreamAttemptError.payload(error.message);
}

function failureKindOf(error: unknown): UpstreamFailureKind {
  if (error instanceof BrokenCircuitError) return 'circuit-open';
  if (error instanceof BulkheadRejectedError) return 'overloaded';
  if (isTimeout(error)) return 'timeout';
  return error instanceof UpstreamAttemptError ? error.kind : 'transport';
}

const FAILURE_MESSAGES: Partial<Record<UpstreamFailureKind, string>> = {
  'circuit-open': 'Operations system circuit is open',
  overloaded: 'Too many calls to the operations system waiting',
  timeout: 'Operations system did not answer in time',
};

function toUnavailable(error: unknown): [UpstreamFailureKind, OperationsUnavailableError] {
  const kind = failureKindOf(error);
  // An attempt error's message is already a whole sentence about the operations system.
  const message =
    FAILURE_MESSAGES[kind] ??
    (error instanceof UpstreamAttemptError ? error.message : 'Operations system call failed');
  return [kind, new OperationsUnavailableError(message, { cause: error })];
}
