import { isAxiosError } from 'axios';
import { UpstreamAttemptError } from '../resilience/upstream-attempt.error.js';

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

/** An answer with a status the HTTP adapter cannot use, as a classified attempt failure. */
export function attemptErrorFromStatus(status: number): UpstreamAttemptError {
  if (status >= 300 && status < 400) {
    // A proxy's login or maintenance page, or worse: unusable every time, so a fault.
    return new UpstreamAttemptError(
      `Operations system answered with redirect ${status}, which is not followed`,
      {
        kind: 'redirect',
        transient: false,
        upstreamFault: true,
        status,
      },
    );
  }
  // 429 is not retried: our backoff is far shorter than any sensible Retry-After, and the
  // breaker is what actually backs off.
  return new UpstreamAttemptError(`Operations system answered ${status}`, {
    kind: 'http-status',
    transient: TRANSIENT_STATUSES.has(status),
    upstreamFault: status >= 500 || status === 429,
    status,
  });
}

/** A request that got no answer, as a classified attempt failure without the AxiosError. */
export function attemptErrorFromRequest(error: unknown, aborted: boolean): UpstreamAttemptError {
  if (aborted) return UpstreamAttemptError.timeout();
  if (!isAxiosError(error)) {
    return new UpstreamAttemptError('Operations system request failed', {
      kind: 'transport',
      transient: false,
      upstreamFault: true,
    });
  }
  if (error.message.startsWith('maxContentLength')) {
    return new UpstreamAttemptError('Operations system sent a response over the size limit', {
      kind: 'too-large',
      transient: false,
      upstreamFault: true,
    });
  }
  const code = error.code ?? 'unknown';
  if (TRANSIENT_NETWORK_CODES.has(code)) {
    return new UpstreamAttemptError(`Operations system connection failed (${code})`, {
      kind: 'network',
      transient: true,
      upstreamFault: true,
    });
  }
  return new UpstreamAttemptError(`Operations system request failed (${code})`, {
    kind: 'transport',
    transient: false,
    upstreamFault: true,
  });
}
