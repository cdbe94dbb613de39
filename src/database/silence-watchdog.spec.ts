import { jest } from '@jest/globals';
import { EventEmitter } from 'node:events';
import type { Logger } from '@nestjs/common';
import { watchForSilence } from './silence-watchdog.js';

const LIMIT_MS = 1500;

/** A client whose statements are answered when the test says: `answer()` makes it idle. */
function fakeClient() {
  const events = new EventEmitter();
  const sent: unknown[][] = [];
  const client = {
    destroyed: 0,
    query: (...args: unknown[]) => {
      sent.push(args);
      return 'result';
    },
    on: (event: 'drain' | 'end', listener: () => void) => events.on(event, listener),
    connection: { stream: { destroy: () => void client.destroyed++ } },
  };
  return { client, sent, answer: () => events.emit('drain'), end: () => events.emit('end') };
}

describe(watchForSilence.name, () => {
  const warnings: string[] = [];
  const logger = { warn: (message: string) => warnings.push(message) } as unknown as Logger;

  beforeEach(() => {
    jest.useFakeTimers();
    warnings.length = 0;
  });

  afterEach(() => jest.useRealTimers());

  it('passes statements through to the client unchanged', () => {
    const { client, sent } = fakeClient();
    watchForSilence(client, LIMIT_MS, logger);

    expect(client.query('SELECT 1', [2])).toBe('result');
    expect(sent).toEqual([['SELECT 1', [2]]]);
  });

  it('drops the connection when a statement goes unanswered for the limit, and says so', () => {
    const { client } = fakeClient();
    watchForSilence(client, LIMIT_MS, logger);
    jest.advanceTimersByTime(5000);

    client.query('SELECT pg_sleep(60)');
    jest.advanceTimersByTime(LIMIT_MS - 1);
    expect(client.destroyed).toBe(0);

    jest.advanceTimersByTime(1);
    expect(client.destroyed).toBe(1);
    expect(warnings).toEqual([`PostgreSQL has not answered for ${LIMIT_MS} ms: dropping the connection`]);
  });

  it('leaves alone a connection that is idle, however long', () => {
    const { client } = fakeClient();
    watchForSilence(client, LIMIT_MS, logger);

    jest.advanceTimersByTime(10 * LIMIT_MS);

    expect(client.destroyed).toBe(0);
  });

  it('bounds each statement of a transaction, not their sum', () => {
    const { client, answer } = fakeClient();
    watchForSilence(client, LIMIT_MS, logger);

    for (let statement = 0; statement < 5; statement++) {
      client.query(`UPDATE t SET n = ${statement}`);
      jest.advanceTimersByTime(LIMIT_MS - 100);
      answer();
    }
    jest.advanceTimersByTime(10 * LIMIT_MS);

    expect(client.destroyed).toBe(0);
  });

  it('counts statements queued while busy from the first one', () => {
    const { client } = fakeClient();
    watchForSilence(client, LIMIT_MS, logger);

    client.query('SELECT 1');
    jest.advanceTimersByTime(LIMIT_MS - 100);
    client.query('SELECT 2');
    jest.advanceTimersByTime(100);

    expect(client.destroyed).toBe(1);
  });

  it('gives up within the limit when its timer fires early: it waits out the rest, not the limit again', () => {
    const { client } = fakeClient();
    watchForSilence(client, LIMIT_MS, logger);
    const clock = jest.spyOn(performance, 'now').mockReturnValue(0);
    client.query('SELECT pg_sleep(60)');

    // The timer fires when the monotonic clock says 40 ms are still to go.
    clock.mockReturnValue(LIMIT_MS - 40);
    jest.advanceTimersByTime(LIMIT_MS);
    expect(client.destroyed).toBe(0);

    clock.mockReturnValue(LIMIT_MS);
    jest.advanceTimersByTime(40);
    clock.mockRestore();

    expect(client.destroyed).toBe(1);
    expect(warnings).toEqual([`PostgreSQL has not answered for ${LIMIT_MS} ms: dropping the connection`]);
  });

  it('stops watching a connection that has ended', () => {
    const { client, end } = fakeClient();
    watchForSilence(client, LIMIT_MS, logger);
    client.query('SELECT 1');

    end();
    jest.advanceTimersByTime(10 * LIMIT_MS);

    expect(client.destroyed).toBe(0);
    expect(jest.getTimerCount()).toBe(0);
  });
});
