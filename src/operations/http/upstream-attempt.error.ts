import { isAxiosError } from 'axios';

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

/** Connection-level failures that a fresh attempt may well not hit again. */
const TRANSIENT_NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
  'ERR_NETWORK',
  'ERR_BAD_RESPONSE',
]);

/** Gateway/overload answers that usually clear on their own. */
const TRANSIENT_STATUSES = new Set([502, 503, 504]);

/**
 * One failed attempt, described without the request: it never holds the upstream URL, the
 * API key or the AxiosError (whose config carries both), so it is safe as a `cause`.
 */
export class UpstreamAttemptError extends Error {
  override readonly name = 'UpstreamAttemptError';

  private constructor(
    message: string,
    readonly kind: UpstreamFailureKind,
    /** Worth another attempt within the same call. */
    readonly transient: boolean,
    /** Evidence that the upstream is unhealthy, so the circuit breaker counts it. */
    readonly upstreamFault: boolean,
    readonly status: number | null = null,
  ) {
    super(message);
  }

  static fromStatus(status: number): UpstreamAttemptError {
    if (status >= 300 && status < 400) {
      // A proxy's login or maintenance page, or worse: unusable every time, so a fault.
      return new UpstreamAttemptError(
        `answered with redirect ${status}, which is not followed`,
        'redirect',
        false,
        true,
        status,
      );
    }
    // 429 is not retried: our backoff is far shorter than any sensible Retry-After, and the
    // breaker is what actually backs off.
    const upstreamFault = status >= 500 || status === 429;
    return new UpstreamAttemptError(
      `answered ${status}`,
      'http-status',
      TRANSIENT_STATUSES.has(status),
      upstreamFault,
      status,
    );
  }

  /** A 2xx answer that is not JSON, or not the shape the port promises: a fault, not retried. */
  static payload(message: string): UpstreamAttemptError {
    return new UpstreamAttemptError(message, 'payload', false, true);
  }

  static fromRequestError(error: unknown, aborted: boolean): UpstreamAttemptError {
    if (aborted) {
      return new UpstreamAttemptError('did not answer in time', 'timeout', true, true);
    }
    if (!isAxiosError(error)) {
      return new UpstreamAttemptError('request failed', 'transport', false, true);
    }
    if (error.message.startsWith('maxContentLength')) {
      return new UpstreamAttemptError('sent a response over the size limit', 'too-large', false, true);
    }
    const code = error.code ?? 'unknown';
    if (TRANSIENT_NETWORK_CODES.has(code)) {
      return new UpstreamAttemptError(`connection failed (${code})`, 'network', true, true);
    }
    return new UpstreamAttemptError(`request failed (${code})`, 'transport', false, true);
  }
}
