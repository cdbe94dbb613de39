import { jest } from '@jest/globals';
import { RequestActivity } from '../../common/http/request-activity.js';
import { DeliveryPacer, LOADED_LOOP_SHARE, YIELDING_INTERVAL_MS } from './delivery-pacer.js';

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
    const turns = [1, 2, 3].map(() => pacer.turn(signal));
    expect(await resolvedAfter(0, turns)).toEqual([true, true, true]);
  });

  it('gives turns at once while requests arrive but the loop has room', async () => {
    pacerWith(true, LOADED_LOOP_SHARE);
    const turns = [1, 2, 3].map(() => pacer.turn(signal));
    expect(await resolvedAfter(0, turns)).toEqual([true, true, true]);
  });

  it('spaces turns YIELDING_INTERVAL_MS apart while requests arrive and the loop is loaded', async () => {
    pacerWith(true, LOADED_LOOP_SHARE + 0.01);
    const turns = [1, 2, 3].map(() => pacer.turn(signal));
    expect(await resolvedAfter(YIELDING_INTERVAL_MS - 1, turns)).toEqual([false, false, false]);
    expect(await resolvedAfter(1, turns)).toEqual([true, false, false]);
    expect(await resolvedAfter(YIELDING_INTERVAL_MS, turns)).toEqual([true, true, false]);
    expect(await resolvedAfter(YIELDING_INTERVAL_MS, turns)).toEqual([true, true, true]);
  });

  it('gives every waiting turn at once on shutdown', async () => {
    pacerWith(true, 1);
    const shutdown = new AbortController();
    const turns = [1, 2, 3].map(() => pacer.turn(shutdown.signal));
    shutdown.abort();
    expect(await resolvedAfter(0, turns)).toEqual([true, true, true]);
  });
});
