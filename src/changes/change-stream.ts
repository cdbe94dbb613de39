import type { Response } from 'express';
import type { Visibility } from '../domain/authenticated-user.js';
import type { ChangeRow } from './changes.repository.js';

/** A change as one Server-Sent Event, its text written once however many streams it goes to. */
export interface ChangeEvent {
  position: number;
  customerId: string;
  text: string;
}

export function changeEventOf({ position, customerId, cursor, json }: ChangeRow): ChangeEvent {
  // JSON text holds no raw line break (they are escaped in strings): one `data:` line.
  return { position, customerId, text: `id: ${cursor}\nevent: change\ndata: ${json.text}\n\n` };
}

/**
 * Consecutive events for one audience, joined into one text once, however many of its streams
 * they go to: a socket write per event and per stream was most of the fan-out's cost, and a text
 * joined per stream would copy the same bytes a thousand times.
 */
export class ChangeBatch {
  private joined: string | undefined;

  constructor(private readonly events: readonly ChangeEvent[]) {}

  get lastPosition(): number {
    return this.events.at(-1)?.position ?? 0;
  }

  /** The text of the events after `position`: the shared whole when `position` is before them all. */
  textAfter(position: number): string {
    const first = this.events[0];
    if (first === undefined || position < first.position) {
      this.joined ??= this.events.map(({ text }) => text).join('');
      return this.joined;
    }
    return this.events
      .filter((event) => event.position > position)
      .map(({ text }) => text)
      .join('');
  }
}

/** Why a stream ended, as the metrics count it. */
export type StreamEndReason = 'client-closed' | 'token-expired' | 'shutdown' | 'slow-consumer' | 'error';

/** Bytes a stream may have waiting in its socket before it counts as fallen behind. */
export const MAX_BUFFERED_BYTES = 1024 * 1024;
const MAX_TIMER_MS = 2 ** 31 - 1;
/** How long an `EventSource` waits before it reconnects, sent as the stream's first field. */
const RECONNECT_DELAY_MS = 5000;
/** The last event of a stream whose token expired: refresh it, then reconnect with `Last-Event-ID`. */
const REAUTHENTICATE_EVENT = 'event: reauthenticate\ndata: {"reason":"token-expired"}\n\n';

/**
 * One open Server-Sent Events response. `position` is the last feed position it has accounted
 * for (delivered, or passed because not visible to it); it only moves forward, so whoever
 * delivers (the replay or the live fan-out) never sends a change twice.
 */
export class ChangeStream {
  /** False while it replays from the table; the live fan-out skips it until then. */
  live = false;
  /** Streams of one audience see the same changes: staff, or one set of customers. */
  readonly audience: string;
  private ended = false;
  private readonly timers: NodeJS.Timeout[] = [];
  /** Runs while bytes wait in the socket; each write the reader takes restarts it. */
  private stallTimer: NodeJS.Timeout | undefined;
  private stalledAfterMs = 0;

  constructor(
    readonly userId: string,
    readonly visibility: Visibility,
    public position: number,
    private readonly response: Response,
    private readonly onEnd: (stream: ChangeStream, reason: StreamEndReason) => void,
  ) {
    this.audience = visibility.customerIds === null ? '*' : JSON.stringify(visibility.customerIds.toSorted());
    response.on('close', () => this.end('client-closed'));
  }

  get isEnded(): boolean {
    return this.ended;
  }

  /**
   * `stalledAfterMs`: a reader that takes no bytes for that long while some wait for it is
   * disconnected, during the replay (which waits for the socket to drain between pages) as live.
   * Without it, a client that stopped reading would hold its stream, and a slot of its user's
   * limit, until its token expired: the buffer bound alone is only checked when more is written.
   */
  open(heartbeatMs: number, expiresInMs: number, stalledAfterMs: number): void {
    this.stalledAfterMs = stalledAfterMs;
    this.response.status(200);
    this.response.setHeader('Content-Type', 'text/event-stream; charset=utf-8');
    this.response.setHeader('Cache-Control', 'no-store');
    // Proxies that buffer (nginx) would hold the events back.
    this.response.setHeader('X-Accel-Buffering', 'no');
    this.response.flushHeaders();
    this.write(`retry: ${RECONNECT_DELAY_MS}\n: stream open\n\n`);
    this.timers.push(setInterval(() => this.write(': keep-alive\n\n'), heartbeatMs));
    // Timers take at most 2^31 - 1 ms (about 24 days); past that Node fires them at once.
    const expiry = Math.min(Math.max(0, expiresInMs), MAX_TIMER_MS);
    this.timers.push(setTimeout(() => this.expire(), expiry));
  }

  /** Sends the batch's events after its position, in one write; false when the stream ended. */
  deliver(batch: ChangeBatch): boolean {
    const text = batch.textAfter(this.position);
    this.position = Math.max(this.position, batch.lastPosition);
    if (text !== '') this.write(text);
    return !this.ended;
  }

  /** Resolves once the socket has room again (or the stream ended). */
  async drained(): Promise<void> {
    if (this.ended || this.response.writableLength === 0) return;
    await new Promise<void>((resolve) => {
      const done = () => {
        this.response.off('drain', done);
        this.response.off('close', done);
        resolve();
      };
      this.response.once('drain', done);
      this.response.once('close', done);
    });
  }

  end(reason: StreamEndReason): void {
    if (this.ended) return;
    this.ended = true;
    for (const timer of this.timers) clearTimeout(timer);
    clearTimeout(this.stallTimer);
    if (!this.response.writableEnded) this.response.end();
    // A slow client's socket may never drain: do not wait for it (nor hold the replay waiting).
    if (reason === 'slow-consumer') this.response.destroy();
    this.onEnd(this, reason);
  }

  private expire(): void {
    // Without an id: a reader's Last-Event-ID stays the last change's.
    this.write(REAUTHENTICATE_EVENT);
    this.end('token-expired');
  }

  private write(text: string): void {
    if (this.ended) return;
    // Called once the socket has handed this text to the network: the reader is taking bytes.
    this.response.write(text, () => this.tookBytes());
    if (this.response.writableLength > MAX_BUFFERED_BYTES) {
      this.end('slow-consumer');
      return;
    }
    if (this.response.writableLength > 0) {
      this.stallTimer ??= setTimeout(() => this.end('slow-consumer'), this.stalledAfterMs);
    }
  }

  private tookBytes(): void {
    if (this.stallTimer === undefined) return;
    if (this.response.writableLength > 0) {
      this.stallTimer.refresh();
    } else {
      clearTimeout(this.stallTimer);
      this.stallTimer = undefined;
    }
  }
}
