/** One Server-Sent Event as a browser's reader would parse it. */
export interface ServerSentEvent {
  id: string | undefined;
  event: string;
  data: string;
}

/**
 * A fetch-based SSE reader (what a portal uses, since `EventSource` cannot send `Authorization`):
 * collects events and comments as they arrive and lets a test wait for them.
 */
export class SseClient {
  readonly events: ServerSentEvent[] = [];
  readonly comments: string[] = [];
  /** The reconnection delay the server asked for (`retry:`), and in which block it came. */
  retry: { ms: number; block: number } | undefined;
  private blocks = 0;
  /** Resolves when the server ends the stream (or the connection fails). */
  readonly closed: Promise<void>;
  private readonly controller = new AbortController();
  private waiters: Array<() => void> = [];
  private ended = false;

  private constructor(readonly response: Response) {
    this.closed = this.read().finally(() => {
      this.ended = true;
      this.wake();
    });
  }

  static async open(url: string, headers: Record<string, string>): Promise<SseClient> {
    const controller = new AbortController();
    const response = await fetch(url, { headers, signal: controller.signal }).catch((error: unknown) => {
      // fetch says only "fetch failed"; what the connection did is in its cause.
      throw new Error(`opening ${url}: ${describeFailure(error)}`, { cause: error });
    });
    return SseClient.reading(response, controller);
  }

  /** Reads a stream the caller opened with `controller`'s signal (after looking at its status). */
  static reading(response: Response, controller: AbortController): SseClient {
    const client = new SseClient(response);
    client.controller.signal.addEventListener('abort', () => controller.abort());
    return client;
  }

  get isClosed(): boolean {
    return this.ended;
  }

  /** Waits until `count` events have arrived in all; fails after `timeoutMs`. */
  async waitForEvents(count: number, timeoutMs = 5000): Promise<ServerSentEvent[]> {
    await this.waitFor(() => this.events.length >= count, timeoutMs, `${count} events`);
    return this.events.slice(0, count);
  }

  async waitForComments(count: number, timeoutMs = 5000): Promise<void> {
    await this.waitFor(() => this.comments.length >= count, timeoutMs, `${count} comments`);
  }

  async waitForClose(timeoutMs = 5000): Promise<void> {
    await this.waitFor(() => this.ended, timeoutMs, 'the stream to close');
  }

  close(): void {
    this.controller.abort();
  }

  private async waitFor(condition: () => boolean, timeoutMs: number, what: string): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!condition()) {
      if (this.ended && !condition()) throw new Error(`the stream closed before ${what}`);
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`timed out waiting for ${what} (have ${this.events.length} events)`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  private wake(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const waiter of waiters) waiter();
  }

  private async read(): Promise<void> {
    if (this.response.body === null) return;
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for await (const chunk of this.response.body) {
        buffer += decoder.decode(chunk as Uint8Array, { stream: true });
        let boundary: number;
        while ((boundary = buffer.indexOf('\n\n')) >= 0) {
          this.parseBlock(buffer.slice(0, boundary));
          buffer = buffer.slice(boundary + 2);
        }
        this.wake();
      }
    } catch {
      // Aborted by the test, or the connection went: either way the stream is over.
    }
  }

  private parseBlock(block: string): void {
    this.blocks += 1;
    const event: ServerSentEvent = { id: undefined, event: 'message', data: '' };
    let hasData = false;
    for (const line of block.split('\n')) {
      if (line.startsWith(':')) {
        this.comments.push(line.slice(1).trim());
        continue;
      }
      const colon = line.indexOf(':');
      const field = colon < 0 ? line : line.slice(0, colon);
      const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
      if (field === 'id') event.id = value;
      else if (field === 'retry') this.retry = { ms: Number(value), block: this.blocks };
      else if (field === 'event') event.event = value;
      else if (field === 'data') {
        event.data = hasData ? `${event.data}\n${value}` : value;
        hasData = true;
      }
    }
    if (hasData) this.events.push(event);
  }
}

function describeFailure(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause as (Error & { code?: string }) | undefined;
  return cause === undefined ? error.message : `${error.message} (${cause.code ?? cause.message})`;
}
