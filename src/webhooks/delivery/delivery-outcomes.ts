import type { TransportOutcome } from './webhook-transport.js';

/** How an attempt ended, as `webhook_deliveries_total{outcome}` counts it. */
export const DELIVERY_OUTCOMES = [
  'success',
  'http-error',
  'redirect',
  'timeout',
  'network-error',
  'target-refused',
] as const;
export type DeliveryOutcome = (typeof DELIVERY_OUTCOMES)[number];

/** An attempt's outcome as the log and the retry decision read it. */
export interface AttemptVerdict {
  outcome: DeliveryOutcome;
  responseStatus: number | null;
  /** null on success. */
  error: string | null;
  /** The receiver said it wants no more (410 Gone). */
  gone: boolean;
  /** A `Retry-After` the receiver sent with a 429 or 503. */
  retryAfter: string | null;
}

/** Reads an answered or failed attempt: 2xx is success, a redirect is a failure, 410 means gone. */
export function verdictOf(outcome: Exclude<TransportOutcome, { kind: 'aborted' }>): AttemptVerdict {
  if (outcome.kind === 'failed') {
    const failures = {
      timeout: 'timeout',
      network: 'network-error',
      'target-refused': 'target-refused',
    } as const;
    return {
      outcome: failures[outcome.failure],
      responseStatus: null,
      error: outcome.error,
      gone: false,
      retryAfter: null,
    };
  }
  const { status } = outcome;
  const base = { responseStatus: status, gone: false, retryAfter: null };
  if (status >= 200 && status < 300) return { ...base, outcome: 'success', error: null };
  if (status >= 300 && status < 400) {
    return {
      ...base,
      outcome: 'redirect',
      error: `the receiver answered ${status}: redirects are not followed`,
    };
  }
  return {
    ...base,
    outcome: 'http-error',
    error: `the receiver answered ${status}`,
    gone: status === 410,
    retryAfter: status === 429 || status === 503 ? outcome.retryAfter : null,
  };
}
