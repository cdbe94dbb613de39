import { jest } from '@jest/globals';
import { RequestActivity } from '../../common/http/request-activity.js';
import {
  DeliveryPacer,
  LOADED_LOOP_SHARE,
  REMEMBERED_ANSWERING,
  YIELDING_INTERVAL_MS,
} from './delivery-pacer.js';

class FixedActivity extends RequestActivity {
  constructor(private readonly serving: boolean) {
    super();
  }

  override servingRequests(): boolean {
    return this.serving;
  }
}

describe('DeliveryPacer', () => {
  let pacer: DeliveryPacer;
  const signal = new AbortController().signal;

  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  /** A pacer reading an API that is (or not) serving requests, with its loop this busy. */
  function pacerWith(serving: boolean, loopShare: number): void {
    const activity = new FixedActivity(serving);
    activity.recordLoopShare(loopShare);
    pacer = new DeliveryPacer(activity);
  }

  /** Which of `turns` have resolved after the pending timers up to `ms` have run. */
  async function resolvedAfter(ms: number, turns: Promise<void>[]): Promise<boolean[]> {
    const resolved = turns.map(() => false);
    turns.forEach((turn, index) => void turn.then(() => (resolved[index] = true)));
    await jest.advanceTimersByTimeAsync(ms);
    return resolved;
  }

  it('gives turns at once while no request has arrived recently, however loaded the loop', async () => {
    pacerWith(false, 1);
    pacer.attempted('answering', true);
    const turns = [
      ...['a', 'b', 'c'].map((id) => pacer.beforeReading(id, signal)),
      ...[1, 2, 3].map(() => pacer.beforeSending('answering', signal)),
    ];
    expect(await resolvedAfter(0, turns)).toEqual(turns.map(() => true));
  });

  it('gives turns at once while requests arrive but the loop has room', async () => {
    pacerWith(true, LOADED_LOOP_SHARE);
    const turns = ['a', 'b', 'c'].map((id) => pacer.beforeReading(id, signal));
    expect(await resolvedAfter(0, turns)).toEqual([true, true, true]);
  });

  it('spaces turns YIELDING_INTERVAL_MS apart while requests arrive and the loop is loaded', async () => {
    pacerWith(true, LOADED_LOOP_SHARE + 0.01);
    const turns = ['a', 'b', 'c'].map((id) => pacer.beforeReading(id, signal));
    expect(await resolvedAfter(0, turns)).toEqual([true, false, false]);
    expect(await resolvedAfter(YIELDING_INTERVAL_MS - 1, turns)).toEqual([true, false, false]);
    expect(await resolvedAfter(1, turns)).toEqual([true, true, false]);
    expect(await resolvedAfter(YIELDING_INTERVAL_MS, turns)).toEqual([true, true, true]);
  });

  it('keeps the pace whatever a delivery takes: a turn asked for late comes at its time, not an interval after', async () => {
    pacerWith(true, 1);
    await pacer.beforeReading('a', signal);
    await jest.advanceTimersByTimeAsync(YIELDING_INTERVAL_MS - 10);
    expect(await resolvedAfter(10, [pacer.beforeReading('a', signal)])).toEqual([true]);
  });

  it('paces a subscription whose receiver has not answered before it reads, and not again before it sends', async () => {
    pacerWith(true, 1);
    pacer.attempted('dead', false);
    await pacer.beforeReading('new', signal);
    expect(
      await resolvedAfter(0, [pacer.beforeSending('new', signal), pacer.beforeReading('dead', signal)]),
    ).toEqual([true, false]);
  });

  it('paces a subscription whose receiver answered only once it has a change to send, in a lane of its own', async () => {
    pacerWith(true, 1);
    pacer.attempted('healthy', true);
    for (const id of ['dead-1', 'dead-2']) pacer.attempted(id, false);
    const dead = ['dead-1', 'dead-2', 'new-1', 'new-2'].map((id) => pacer.beforeReading(id, signal));
    const reading = pacer.beforeReading('healthy', signal);
    const sending = [pacer.beforeSending('healthy', signal), pacer.beforeSending('healthy', signal)];
    expect(await resolvedAfter(0, [...dead, reading, ...sending])).toEqual([
      true,
      false,
      false,
      false,
      true,
      true,
      false,
    ]);
    expect(await resolvedAfter(YIELDING_INTERVAL_MS, sending)).toEqual([true, true]);
  });

  it('moves a subscription whose receiver stopped answering to the others’ lane', async () => {
    pacerWith(true, 1);
    pacer.attempted('flaky', true);
    pacer.attempted('flaky', false);
    const dead = ['dead-1', 'dead-2'].map((id) => pacer.beforeReading(id, signal));
    expect(
      await resolvedAfter(YIELDING_INTERVAL_MS, [...dead, pacer.beforeReading('flaky', signal)]),
    ).toEqual([true, true, false]);
  });

  it('forgets the least recently answering subscription beyond REMEMBERED_ANSWERING, until it answers again', async () => {
    pacerWith(true, 1);
    for (let index = 0; index <= REMEMBERED_ANSWERING; index++) pacer.attempted(`answering-${index}`, true);
    await pacer.beforeReading('dead', signal);
    const forgotten = pacer.beforeReading('answering-0', signal);
    const remembered = pacer.beforeReading('answering-1', signal);
    expect(await resolvedAfter(0, [forgotten, remembered])).toEqual([false, true]);

    pacer.attempted('answering-0', true);
    expect(await resolvedAfter(0, [pacer.beforeReading('answering-0', signal)])).toEqual([true]);
  });

  it('gives every waiting turn at once on shutdown', async () => {
    pacerWith(true, 1);
    const shutdown = new AbortController();
    const turns = ['a', 'b', 'c'].map((id) => pacer.beforeReading(id, shutdown.signal));
    shutdown.abort();
    expect(await resolvedAfter(0, turns)).toEqual([true, true, true]);
  });
});
