import { randomUUID } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import type { TimeSource } from '../control/sandbox-clock.js';

export interface NotifierOptions {
  url: string;
  /** `whsec_…`: the secret the service verifies with. */
  secret: string;
  clock: TimeSource;
  /** Where failures are reported. */
  log: (line: string) => void;
  /** Numeros a message names at most; more are split. */
  batchSize?: number;
  /** Waits between attempts of one message. */
  retryDelaysMs?: readonly number[];
}

const DEFAULT_RETRY_DELAYS_MS = [250, 1000, 4000];

/**
 * Tells the service which processes changed: `processes.changed` messages signed as Standard
 * Webhooks, one at a time in order, each tried a few times. A message that still fails is dropped:
 * the service's timed sync picks the change up anyway.
 */
export class ChangeNotifier {
  private readonly webhook: Webhook;
  private queue: Promise<void> = Promise.resolve();
  private closed = false;

  constructor(private readonly options: NotifierOptions) {
    this.webhook = new Webhook(options.secret);
  }

  notify(numeros: readonly string[]): void {
    const size = this.options.batchSize ?? 500;
    const batches = numeros.length === 0 ? [[]] : chunk(numeros, size);
    for (const batch of batches) {
      this.queue = this.queue.then(() => this.send(batch));
    }
  }

  /** Resolves once every message queued so far was sent or given up. */
  idle(): Promise<void> {
    return this.queue;
  }

  close(): Promise<void> {
    this.closed = true;
    return this.queue;
  }

  private async send(numeros: readonly string[]): Promise<void> {
    const sentAt = this.options.clock.now();
    const payload = JSON.stringify({
      type: 'processes.changed',
      timestamp: sentAt.toISOString(),
      data: { numeros },
    });
    const id = `msg_${randomUUID()}`;
    const delays = this.options.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS;
    for (let attempt = 0; attempt <= delays.length && !this.closed; attempt++) {
      // Signed afresh each attempt: the service accepts timestamps within minutes of its own time.
      const signedAt = new Date();
      const headers = {
        'content-type': 'application/json',
        'webhook-id': id,
        'webhook-timestamp': String(Math.floor(signedAt.getTime() / 1000)),
        'webhook-signature': this.webhook.sign(id, signedAt, payload),
      };
      const failure = await fetch(this.options.url, {
        method: 'POST',
        headers,
        body: payload,
        signal: AbortSignal.timeout(5000),
      }).then(
        async (response) => {
          await response.body?.cancel();
          return response.ok ? null : `HTTP ${response.status}`;
        },
        (error: unknown) => (error instanceof Error ? error.message : String(error)),
      );
      if (failure === null) return;
      const delay = delays[attempt];
      if (delay === undefined) {
        this.options.log(
          `sandbox: notification ${id} (${numeros.length} processes) not delivered: ${failure}`,
        );
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  }
}

function chunk<T>(items: readonly T[], size: number): T[][] {
  const chunks: T[][] = [];
  for (let start = 0; start < items.length; start += size) chunks.push(items.slice(start, start + size));
  return chunks;
}
