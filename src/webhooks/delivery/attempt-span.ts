import { SpanStatusCode, trace } from '@opentelemetry/api';
import type { TransportOutcome } from './webhook-transport.js';

const tracer = trace.getTracer('process-lookup-webhooks');

export interface AttemptIdentity {
  subscriptionId: string;
  /** The change's cursor, sent as `webhook-id`. */
  messageId: string;
  /** 1 for the first attempt at this change. */
  attempt: number;
}

/**
 * Runs one delivery attempt inside a span of its own, which the POST's span, and so the
 * receiver's `traceparent`, descend from. Without tracing configured the span records nothing.
 */
export function inAttemptSpan(
  identity: AttemptIdentity,
  send: () => Promise<TransportOutcome>,
): Promise<TransportOutcome> {
  const attributes = {
    'webhook.subscription_id': identity.subscriptionId,
    'webhook.message_id': identity.messageId,
    'webhook.attempt': identity.attempt,
  };
  return tracer.startActiveSpan('webhook delivery attempt', { attributes }, async (span) => {
    try {
      const outcome = await send();
      if (outcome.kind === 'answered') span.setAttribute('http.response.status_code', outcome.status);
      if (outcome.kind === 'failed') span.setStatus({ code: SpanStatusCode.ERROR, message: outcome.error });
      if (outcome.kind === 'aborted') span.setAttribute('webhook.aborted', true);
      return outcome;
    } finally {
      span.end();
    }
  });
}
