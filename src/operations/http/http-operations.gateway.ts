import { HttpService } from '@nestjs/axios';
import { Logger } from '@nestjs/common';
import type { AxiosResponse } from 'axios';
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
import { firstValueFrom } from 'rxjs';
import { AppConfig } from '../../config/app.config.js';
import { ThrottledWarnings } from '../../logging/throttled-warnings.js';
import { OperationsGateway, OperationsUnavailableError } from '../operations.gateway.js';
import type {
  ChangedProcessesPage,
  ChangedProcessesQuery,
  OperationsProcessDetail,
} from '../operations.types.js';
import { isAcceptableNumero, parseChangedProcessesPage, parseProcessDetail } from './operations-payload.js';
import { UpstreamAttemptError, type UpstreamFailureKind } from './upstream-attempt.error.js';

/**
 * A whole page of processes with every follow-up event is well under 1 MiB; 5 MiB leaves room
 * for growth while keeping a runaway or hostile upstream from filling the heap.
 */
export const MAX_UPSTREAM_RESPONSE_BYTES = 5 * 1024 * 1024;

export interface OperationsResilienceOptions {
  /** Hard limit for one attempt, response body included (`OPERATIONS_TIMEOUT_MS`). */
  attemptTimeoutMs: number;
  /** Hard limit for the whole call: every attempt and backoff. Never below one attempt. */
  deadlineMs: number;
  /** Further attempts after the first, for transient failures only. */
  maxRetries: number;
  /** First backoff delay; later ones grow exponentially with decorrelated jitter. */
  retryInitialDelayMs: number;
  retryMaxDelayMs: number;
  /** Consecutive upstream faults (timeouts, connection errors, 5xx, 429) that open the circuit. */
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

export type OperationsCircuitState = 'closed' | 'open' | 'half-open' | 'isolated';
export type OperationsOperation = 'listChangedProcesses' | 'getProcessDetail';

export interface OperationsCallEvent {
  operation: OperationsOperation;
  outcome: 'success' | 'not-found' | 'failure';
  /** Set when `outcome` is `failure`. */
  failure: UpstreamFailureKind | null;
  durationMs: number;
  /** Response bytes read over every attempt of the call (each capped). */
  responseBytes: number;
}

/** Where metrics attach; every method is optional. */
export interface OperationsCallObserver {
  callFinished?(event: OperationsCallEvent): void;
  circuitStateChanged?(state: OperationsCircuitState): void;
}

interface UpstreamAnswer {
  status: number;
  body: string;
}

const CIRCUIT_STATE_NAMES: Record<CircuitState, OperationsCircuitState> = {
  [CircuitState.Closed]: 'closed',
  [CircuitState.Open]: 'open',
  [CircuitState.HalfOpen]: 'half-open',
  [CircuitState.Isolated]: 'isolated',
};

/**
 * The {@link OperationsGateway} over the operations system's HTTP API.
 *
 * Only two idempotent GETs on fixed path templates; the numero is checked and encoded, absolute
 * URLs and redirects are refused, bodies are capped. Each attempt is bounded by a timeout, the
 * whole call by a deadline; transient failures are retried with jittered exponential backoff; a
 * circuit breaker fails fast through an outage; a bulkhead bounds in-flight requests. Every
 * failure reaches the caller as {@link OperationsUnavailableError} naming neither the URL nor
 * the key.
 */
export class HttpOperationsGateway extends OperationsGateway {
  private readonly logger = new Logger(HttpOperationsGateway.name);
  // Under partial faults every degraded request fails: one line per kind and interval, not one each.
  private readonly failureWarnings = new ThrottledWarnings(this.logger, {
    subject: 'Operations system call failed',
  });
  private readonly baseUrl: string;
  private readonly headers: Record<string, string>;
  private readonly breaker;
  private readonly policy;
  private readonly observers = new Set<OperationsCallObserver>();

  constructor(
    private readonly http: HttpService,
    config: AppConfig,
    options: Partial<OperationsResilienceOptions> = {},
  ) {
    super();
    const { baseUrl, apiKey, timeoutMs } = config.operations;
    if (baseUrl === null) {
      throw new Error('HttpOperationsGateway needs OPERATIONS_BASE_URL');
    }
    this.baseUrl = baseUrl;
    this.headers = { Accept: 'application/json', ...(apiKey === null ? {} : { 'X-Api-Key': apiKey }) };
    if (apiKey === null) {
      this.logger.warn('OPERATIONS_API_KEY is not set; calling the operations system without a key');
    }
    const merged = { ...defaultResilienceOptions(timeoutMs), ...options };
    const resilience = { ...merged, deadlineMs: Math.max(merged.deadlineMs, merged.attemptTimeoutMs) };

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

  /** Registers an observer; returns its removal. */
  addObserver(observer: OperationsCallObserver): () => void {
    this.observers.add(observer);
    return () => this.observers.delete(observer);
  }

  async getProcessDetail(numero: string): Promise<OperationsProcessDetail | null> {
    // The service validates numeros already; this keeps the path template closed regardless.
    if (!isAcceptableNumero(numero)) {
      this.logger.warn('Refused to ask the operations system for a numero outside the contract');
      return null;
    }
    return this.call('getProcessDetail', `processes/${encodeURIComponent(numero)}`, {}, (answer) => {
      if (answer.status === 404) return null;
      const detail = parseProcessDetail(parseJson(answer.body));
      if (detail.numero.toUpperCase() !== numero.toUpperCase()) {
        throw UpstreamAttemptError.payload('answered with another process');
      }
      return detail;
    });
  }

  async listChangedProcesses(query: ChangedProcessesQuery): Promise<ChangedProcessesPage> {
    const params = { updatedSince: query.updatedSince, cursor: query.cursor, limit: query.limit };
    return this.call('listChangedProcesses', 'processes', params, (answer) =>
      parseChangedProcessesPage(parseJson(answer.body), this.logger),
    );
  }

  /**
   * One call through the policies. The answer is parsed and validated inside them, so an
   * unusable answer (not JSON, the wrong shape, another process) counts against the circuit like
   * any other fault instead of being fetched again and again.
   */
  private async call<T>(
    operation: OperationsOperation,
    path: string,
    params: Record<string, string | number | null>,
    map: (answer: UpstreamAnswer) => T,
  ): Promise<T> {
    const started = performance.now();
    const read = { bytes: 0 };
    const finished = (outcome: OperationsCallEvent['outcome'], failure: UpstreamFailureKind | null) =>
      this.notify({
        operation,
        outcome,
        failure,
        durationMs: performance.now() - started,
        responseBytes: read.bytes,
      });
    try {
      const result = await this.policy.execute(async ({ signal }) =>
        mapAnswer(await this.attempt(operation, path, params, signal, read), map),
      );
      finished(result === null ? 'not-found' : 'success', null);
      return result;
    } catch (error) {
      const [kind, failure] = this.toUnavailable(error);
      // Fast failures while the circuit is open are counted in the metrics; its opening is logged once.
      if (kind !== 'circuit-open') this.failureWarnings.warn(`${operation} (${kind})`, failure);
      finished('failure', kind);
      throw failure;
    }
  }

  /** One request. Settles with an answer the caller can use, or an {@link UpstreamAttemptError}. */
  private async attempt(
    operation: OperationsOperation,
    path: string,
    params: Record<string, string | number | null>,
    signal: AbortSignal,
    read: { bytes: number },
  ): Promise<UpstreamAnswer> {
    let response: AxiosResponse<string>;
    try {
      response = await firstValueFrom(
        this.http.get<string>(path, {
          baseURL: this.baseUrl,
          allowAbsoluteUrls: false,
          params,
          headers: this.headers,
          signal,
          maxRedirects: 0,
          maxContentLength: MAX_UPSTREAM_RESPONSE_BYTES,
          maxBodyLength: MAX_UPSTREAM_RESPONSE_BYTES,
          // Raw text: axios would otherwise hand back unparseable JSON silently as a string.
          responseType: 'text',
          transformResponse: (data: unknown) => data,
          validateStatus: () => true,
        }),
      );
    } catch (error) {
      const failure = UpstreamAttemptError.fromRequestError(error, signal.aborted);
      // axios stops reading at the cap and aborts the rest.
      if (failure.kind === 'too-large') read.bytes += MAX_UPSTREAM_RESPONSE_BYTES;
      throw failure;
    }
    const { status } = response;
    const body = typeof response.data === 'string' ? response.data : '';
    read.bytes += Buffer.byteLength(body);
    if ((status >= 200 && status < 300) || (status === 404 && operation === 'getProcessDetail')) {
      return { status, body };
    }
    throw UpstreamAttemptError.fromStatus(status);
  }

  private toUnavailable(error: unknown): [UpstreamFailureKind, OperationsUnavailableError] {
    if (error instanceof BrokenCircuitError) {
      return [
        'circuit-open',
        new OperationsUnavailableError('Operations system circuit is open', { cause: error }),
      ];
    }
    if (error instanceof BulkheadRejectedError) {
      return [
        'overloaded',
        new OperationsUnavailableError('Too many calls to the operations system waiting', { cause: error }),
      ];
    }
    if (isTimeout(error)) {
      return [
        'timeout',
        new OperationsUnavailableError('Operations system did not answer in time', { cause: error }),
      ];
    }
    if (error instanceof UpstreamAttemptError) {
      return [
        error.kind,
        new OperationsUnavailableError(`Operations system ${error.message}`, { cause: error }),
      ];
    }
    return ['transport', new OperationsUnavailableError('Operations system call failed', { cause: error })];
  }

  private notify(event: OperationsCallEvent): void {
    for (const observer of this.observers) {
      try {
        observer.callFinished?.(event);
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

function parseJson(body: string): unknown {
  try {
    return JSON.parse(body);
  } catch {
    throw UpstreamAttemptError.payload('sent a body that is not JSON');
  }
}

/** The caller's mapping of an answer; a payload it cannot use is an attempt that failed. */
function mapAnswer<T>(answer: UpstreamAnswer, map: (answer: UpstreamAnswer) => T): T {
  try {
    return map(answer);
  } catch (error) {
    if (error instanceof OperationsUnavailableError) throw UpstreamAttemptError.payload(error.message);
    throw error;
  }
}
