import { jest } from '@jest/globals';
import { EventEmitter } from 'node:events';
import type { Response } from 'express';
import { ChangeBatch, ChangeStream, MAX_BUFFERED_BYTES, type ChangeEvent } from './change-stream.js';

function eventAt(position: number, customerId = 'acme'): ChangeEvent {
  return { position, customerId, text: `id: c${position}\nevent: change\ndata: {}\n\n` };
}

/** What a stream does with its response: the writes it made, and whether it ended it. */
class RecordingResponse extends EventEmitter {
  readonly writes: string[] = [];
  /** The callbacks of writes the socket has not handed to the network yet. */
  readonly unsent: Array<() => void> = [];
  writableLength = 0;
  writableEnded = false;
  destroyed = false;
  statusCode = 0;

  write(text: string, sent?: () => void): boolean {
    this.writes.push(text);
    if (sent !== undefined) this.unsent.push(sent);
    return true;
  }

  /** The reader takes the oldest waiting write. */
  takeOne(): void {
    this.unsent.shift()?.();
  }

  status(code: number): this {
    this.statusCode = code;
    return this;
  }

  setHeader(): void {}

  flushHeaders(): void {}

  end(): void {
    this.writableEnded = true;
  }

  destroy(): void {
    this.destroyed = true;
  }
}

describe(ChangeBatch.name, () => {
  const batch = new ChangeBatch([eventAt(11), eventAt(12), eventAt(15)]);

  it('is every event’s text, in order, for a stream behind them all', () => {
    expect(batch.textAfter(10)).toBe(eventAt(11).text + eventAt(12).text + eventAt(15).text);
    expect(batch.lastPosition).toBe(15);
  });

  it('is only the later events for a stream already inside the batch', () => {
    expect(batch.textAfter(12)).toBe(eventAt(15).text);
    expect(batch.textAfter(15)).toBe('');
  });

  it('is empty, at no position, without events', () => {
    const empty = new ChangeBatch([]);
    expect(empty.textAfter(0)).toBe('');
    expect(empty.lastPosition).toBe(0);
  });
});

describe(ChangeStream.name, () => {
  function streamAfter(position: number) {
    const response = new RecordingResponse();
    const ended = jest.fn();
    const stream = new ChangeStream(
      'user-1',
      { customerIds: ['acme'] },
      position,
      response as unknown as Response,
      ended,
    );
    return { stream, response, ended };
  }

  it('writes a batch in one write and moves past it', () => {
    const { stream, response } = streamAfter(10);

    expect(stream.deliver(new ChangeBatch([eventAt(11), eventAt(12), eventAt(15)]))).toBe(true);

    expect(response.writes).toEqual([eventAt(11).text + eventAt(12).text + eventAt(15).text]);
    expect(stream.position).toBe(15);
  });

  it('never writes a change twice, nor anything for a batch it is already past', () => {
    const { stream, response } = streamAfter(12);
    const batch = new ChangeBatch([eventAt(11), eventAt(12), eventAt(15)]);

    stream.deliver(batch);
    stream.deliver(batch);

    expect(response.writes).toEqual([eventAt(15).text]);
  });

  it('ends as a slow consumer once more than the bound waits in its socket', () => {
    const { stream, response, ended } = streamAfter(0);
    response.writableLength = MAX_BUFFERED_BYTES + 1;

    expect(stream.deliver(new ChangeBatch([eventAt(1)]))).toBe(false);

    expect(ended).toHaveBeenCalledWith(stream, 'slow-consumer');
    expect(response.destroyed).toBe(true);
  });

  describe('open', () => {
    beforeEach(() => jest.useFakeTimers());
    afterEach(() => jest.useRealTimers());

    it('first tells an EventSource to wait 5 s before it reconnects', () => {
      const { stream, response } = streamAfter(0);

      stream.open(15_000, 60_000, 120_000);

      expect(response.writes[0]).toMatch(/^retry: 5000\n/);
    });

    it('when the token expires, sends reauthenticate (no id, so Last-Event-ID stays) and then closes', () => {
      const { stream, response, ended } = streamAfter(0);
      stream.open(15_000, 60_000, 120_000);

      jest.advanceTimersByTime(59_999);
      expect(response.writableEnded).toBe(false);
      jest.advanceTimersByTime(1);

      expect(response.writes.at(-1)).toBe('event: reauthenticate\ndata: {"reason":"token-expired"}\n\n');
      expect(response.writableEnded).toBe(true);
      expect(ended).toHaveBeenCalledWith(stream, 'token-expired');
    });

    it('says nothing more when it ends for another reason', () => {
      const { stream, response } = streamAfter(0);
      stream.open(15_000, 60_000, 120_000);

      stream.end('shutdown');
      jest.advanceTimersByTime(60_000);

      expect(response.writes.join('')).not.toContain('reauthenticate');
    });
  });

  it('counts the same customers in any order as one audience, and staff as another', () => {
    const audienceOf = (customerIds: string[] | null) =>
      new ChangeStream('u', { customerIds }, 0, new RecordingResponse() as unknown as Response, jest.fn())
        .audience;

    expect(audienceOf(['acme', 'globex'])).toBe(audienceOf(['globex', 'acme']));
    expect(audienceOf(['acme'])).not.toBe(audienceOf(['acme', 'globex']));
    expect(audienceOf(null)).not.toBe(audienceOf([]));
  });

  describe('a reader that takes nothing', () => {
    const STALLED_AFTER_MS = 60_000;

    beforeEach(() => {
      jest.useFakeTimers();
    });

    afterEach(() => {
      jest.useRealTimers();
    });

    function openStream() {
      const opened = streamAfter(0);
      opened.stream.open(15_000, 3_600_000, STALLED_AFTER_MS);
      return opened;
    }

    it(`is disconnected ${STALLED_AFTER_MS / 1000} s after it last took bytes while some wait`, () => {
      const { stream, response, ended } = openStream();
      response.writableLength = 4096;
      stream.deliver(new ChangeBatch([eventAt(1)]));

      jest.advanceTimersByTime(STALLED_AFTER_MS - 1);
      expect(ended).not.toHaveBeenCalled();
      jest.advanceTimersByTime(1);

      expect(ended).toHaveBeenCalledWith(stream, 'slow-consumer');
      expect(response.destroyed).toBe(true);
    });

    it('stays while it takes bytes, however slowly', () => {
      const { stream, response, ended } = openStream();
      response.writableLength = 4096;
      stream.deliver(new ChangeBatch([eventAt(1)]));
      stream.deliver(new ChangeBatch([eventAt(2)]));

      jest.advanceTimersByTime(STALLED_AFTER_MS - 1);
      response.takeOne();
      jest.advanceTimersByTime(STALLED_AFTER_MS - 1);
      response.takeOne();
      jest.advanceTimersByTime(STALLED_AFTER_MS - 1);

      expect(ended).not.toHaveBeenCalled();
    });

    it('is not timed while nothing waits for it', () => {
      const { stream, response, ended } = openStream();
      response.writableLength = 4096;
      stream.deliver(new ChangeBatch([eventAt(1)]));
      response.writableLength = 0;
      while (response.unsent.length > 0) response.takeOne();

      jest.advanceTimersByTime(10 * STALLED_AFTER_MS);

      expect(ended).not.toHaveBeenCalled();
    });

    it('lets a replay waiting for the socket to drain go on, to find the stream ended', async () => {
      const { stream, response } = openStream();
      response.writableLength = 4096;
      stream.deliver(new ChangeBatch([eventAt(1)]));
      const drained = stream.drained();
      // What destroying a real response does.
      response.destroy = () => {
        response.destroyed = true;
        response.emit('close');
      };

      jest.advanceTimersByTime(STALLED_AFTER_MS);

      await drained;
      expect(stream.isEnded).toBe(true);
    });
  });
});
