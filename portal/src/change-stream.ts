/** One Server-Sent Event as the change stream sends it. */
export interface StreamEvent {
  id: string | null;
  event: string;
  data: string;
}

/**
 * Splits a `text/event-stream` into events (the WHATWG parsing rules for `id`, `event`, `data`
 * and comments). A reader of its own because `EventSource` cannot send an `Authorization` header.
 */
export class EventStreamParser {
  private buffer = '';
  private id: string | null = null;
  private event = '';
  private data: string[] = [];

  push(chunk: string): StreamEvent[] {
    this.buffer += chunk;
    const events: StreamEvent[] = [];
    let newline: number;
    while ((newline = this.buffer.search(/\r\n|\r|\n/)) >= 0) {
      const line = this.buffer.slice(0, newline);
      const width = this.buffer.startsWith('\r\n', newline) ? 2 : 1;
      this.buffer = this.buffer.slice(newline + width);
      const dispatched = this.line(line);
      if (dispatched !== null) events.push(dispatched);
    }
    return events;
  }

  private line(line: string): StreamEvent | null {
    if (line === '') {
      if (this.data.length === 0) return null;
      const event = { id: this.id, event: this.event || 'message', data: this.data.join('\n') };
      this.event = '';
      this.data = [];
      return event;
    }
    if (line.startsWith(':')) return null;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (field === 'data') this.data.push(value);
    else if (field === 'event') this.event = value;
    else if (field === 'id' && !value.includes('\0')) this.id = value;
    return null;
  }
}

export type StreamOutcome = 'closed' | 'unavailable' | 'unauthorized';

/**
 * Follows `GET /api/changes/stream` until the server closes it or `signal` aborts. Resumes after
 * `lastEventId`; `onEvent` sees every `change` event with the id to resume from.
 */
export async function followChangeStream(options: {
  baseUrl: string;
  token: string;
  lastEventId: string | null;
  signal: AbortSignal;
  onEvent: (event: StreamEvent) => void;
}): Promise<StreamOutcome> {
  const headers: Record<string, string> = {
    Authorization: `Bearer ${options.token}`,
    Accept: 'text/event-stream',
  };
  if (options.lastEventId !== null) headers['Last-Event-ID'] = options.lastEventId;
  const response = await fetch(`${options.baseUrl}/api/changes/stream`, {
    headers,
    signal: options.signal,
    cache: 'no-store',
  });
  if (response.status === 401) return 'unauthorized';
  if (!response.ok || response.body === null) return 'unavailable';
  const parser = new EventStreamParser();
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return 'closed';
    for (const event of parser.push(value)) options.onEvent(event);
  }
}
