/** One POST of a delivery, signed and ready. */
export interface WebhookRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
  /** Aborts the attempt (the instance is shutting down); it then counts as not made. */
  signal: AbortSignal;
}

/** How an attempt ended: an answer (any status), or no usable answer and why. */
export type TransportOutcome =
  | { kind: 'answered'; status: number; retryAfter: string | null; durationMs: number }
  | { kind: 'failed'; failure: TransportFailure; error: string; durationMs: number }
  | { kind: 'aborted' };

export type TransportFailure = 'timeout' | 'network' | 'target-refused';

/**
 * Sends webhook requests to customers' receivers. The HTTP adapter enforces where they may go
 * (on the address actually connected), the time an attempt may take and how much of the answer
 * is read; a test may put a fake in its place.
 */
export abstract class WebhookTransport {
  abstract send(request: WebhookRequest): Promise<TransportOutcome>;
}
