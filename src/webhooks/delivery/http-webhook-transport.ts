import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { performance } from 'node:perf_hooks';
import type { OnApplicationShutdown } from '@nestjs/common';
import type { ResolvedAddress } from '../security/host-resolver.js';
import { TargetRefusedError, WebhookTargetPolicy } from '../security/webhook-target-policy.js';
import { WebhookTransport, type TransportOutcome, type WebhookRequest } from './webhook-transport.js';

/** A receiver has this long to answer, headers and body. */
export const DELIVERY_TIMEOUT_MS = 15_000;
/** The most of an answer read; the rest is dropped with the connection. */
export const MAX_RESPONSE_BYTES = 64 * 1024;

export interface HttpTransportLimits {
  timeoutMs: number;
  maxResponseBytes: number;
}

/**
 * POSTs deliveries with Node's HTTP client. The host is resolved once and every address checked
 * against {@link WebhookTargetPolicy} before connecting; the socket then connects through a
 * `lookup` that hands back exactly those addresses, so a DNS answer that changes in between
 * (rebinding) never reaches a refused address. Redirects are not followed.
 */
export class HttpWebhookTransport extends WebhookTransport implements OnApplicationShutdown {
  // No socket limit: an attempt's time runs from the request, so it must never queue for a socket.
  private readonly httpAgent = new http.Agent({ keepAlive: true });
  private readonly httpsAgent = new https.Agent({ keepAlive: true });

  constructor(
    private readonly policy: WebhookTargetPolicy,
    private readonly limits: HttpTransportLimits = {
      timeoutMs: DELIVERY_TIMEOUT_MS,
      maxResponseBytes: MAX_RESPONSE_BYTES,
    },
  ) {
    super();
  }

  async send(request: WebhookRequest): Promise<TransportOutcome> {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    let addresses: ResolvedAddress[];
    try {
      addresses = await this.policy.permittedAddresses(request.url);
    } catch (error) {
      if (!(error instanceof TargetRefusedError)) throw error;
      return {
        kind: 'failed',
        failure: 'target-refused',
        error: `target refused: ${error.message}`,
        durationMs: elapsed(),
      };
    }
    if (request.signal.aborted) return { kind: 'aborted' };
    return this.post(request, addresses, elapsed, 'pooled');
  }

  /**
   * One POST. On a pooled connection, one that breaks before any answer is most likely one the
   * receiver closed as it was reused (Node servers close idle ones after 5 s, and a retry comes
   * 5 s after a failure): the request goes once more, on a connection of its own, as browsers do.
   * A receiver that dedupes by webhook-id sees it once either way.
   */
  private post(
    request: WebhookRequest,
    addresses: ResolvedAddress[],
    elapsed: () => number,
    connection: 'pooled' | 'own',
  ): Promise<TransportOutcome> {
    return new Promise((resolve) => {
      const url = new URL(request.url);
      const client = url.protocol === 'https:' ? https : http;
      const pool = url.protocol === 'https:' ? this.httpsAgent : this.httpAgent;
      const outgoing = client.request(url, {
        method: 'POST',
        agent: connection === 'pooled' ? pool : false,
        headers: { ...request.headers, 'content-length': String(Buffer.byteLength(request.body)) },
        lookup: pinnedLookup(addresses),
        signal: request.signal,
      });
      let settled = false;
      let answering = false;
      const settle = (outcome: TransportOutcome | Promise<TransportOutcome>) => {
        if (settled) return;
        settled = true;
        clearTimeout(deadline);
        resolve(outcome);
      };
      const deadline = setTimeout(() => {
        settle({
          kind: 'failed',
          failure: 'timeout',
          error: `no complete answer within ${this.limits.timeoutMs / 1000} s`,
          durationMs: elapsed(),
        });
        outgoing.destroy();
      }, this.limits.timeoutMs);
      outgoing.on('response', (response) => {
        answering = true;
        const status = response.statusCode ?? 0;
        const retryAfter = response.headers['retry-after'] ?? null;
        let read = 0;
        const answered = () => settle({ kind: 'answered', status, retryAfter, durationMs: elapsed() });
        response.on('data', (chunk: Buffer) => {
          read += chunk.length;
          if (read >= this.limits.maxResponseBytes) {
            answered();
            response.destroy();
          }
        });
        response.on('end', answered);
        // An answer whose body breaks off still said its status.
        response.on('error', answered);
        response.on('aborted', answered);
      });
      outgoing.on('error', (error: NodeJS.ErrnoException) => {
        if (request.signal.aborted) {
          settle({ kind: 'aborted' });
          return;
        }
        if (connection === 'pooled' && outgoing.reusedSocket && !answering) {
          settle(this.post(request, addresses, elapsed, 'own'));
          return;
        }
        settle({ kind: 'failed', failure: 'network', error: networkError(error), durationMs: elapsed() });
      });
      outgoing.end(request.body);
    });
  }

  onApplicationShutdown(): void {
    this.httpAgent.destroy();
    this.httpsAgent.destroy();
  }
}

/** A `lookup` that answers with the addresses already resolved and checked, never asking DNS again. */
function pinnedLookup(addresses: ResolvedAddress[]): LookupFunction {
  return (_hostname, options, callback) => {
    if (options.all === true) {
      (callback as unknown as (error: null, all: ResolvedAddress[]) => void)(null, addresses);
      return;
    }
    const [first] = addresses;
    callback(null, first!.address, first!.family);
  };
}

/** A connection failure in words, without the client's internals. */
function networkError(error: NodeJS.ErrnoException): string {
  switch (error.code) {
    case 'ECONNREFUSED':
      return 'connection refused';
    case 'ECONNRESET':
      return 'connection reset by the receiver';
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return 'receiver unreachable';
    default:
      return error.code === undefined ? 'connection failed' : `connection failed (${error.code})`;
  }
}
