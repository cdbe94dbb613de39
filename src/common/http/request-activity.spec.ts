import { jest } from '@jest/globals';
import type { NextFunction, Request, Response } from 'express';
import {
  EventLoopLoad,
  LOOP_SAMPLE_MS,
  LoopShareSampler,
  RECENT_REQUEST_MS,
  RequestActivity,
} from './request-activity.js';

describe('RequestActivity', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  const arrive = (activity: RequestActivity) => {
    const next = jest.fn();
    activity.middleware({} as Request, {} as Response, next as NextFunction);
    return next;
  };

  it('is not serving requests before the first one arrives', () => {
    expect(new RequestActivity().servingRequests()).toBe(false);
  });

  it('serves requests from an arrival until it is RECENT_REQUEST_MS old, and passes the request on', () => {
    const activity = new RequestActivity();
    expect(arrive(activity)).toHaveBeenCalledTimes(1);
    jest.advanceTimersByTime(RECENT_REQUEST_MS - 1);
    expect(activity.servingRequests()).toBe(true);
    jest.advanceTimersByTime(1);
    expect(activity.servingRequests()).toBe(false);
  });

  it('counts from the latest arrival', () => {
    const activity = new RequestActivity();
    arrive(activity);
    jest.advanceTimersByTime(RECENT_REQUEST_MS - 10);
    arrive(activity);
    jest.advanceTimersByTime(RECENT_REQUEST_MS - 10);
    expect(activity.servingRequests()).toBe(true);
  });

  it('is read through a view of its shared record, as a worker thread reads it', () => {
    const activity = new RequestActivity();
    const view = new RequestActivity(activity.shared);
    expect(view.servingRequests()).toBe(false);
    arrive(activity);
    activity.recordLoopShare(0.8);
    expect(view.servingRequests()).toBe(true);
    expect(view.loopShare()).toBe(0.8);
  });
});

describe('LoopShareSampler', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  class QueuedLoopLoad extends EventLoopLoad {
    constructor(private readonly shares: number[]) {
      super();
    }

    sample(): number {
      return this.shares.shift() ?? 0;
    }
  }

  it('records the busy share of the loop every LOOP_SAMPLE_MS until the module is destroyed', () => {
    const activity = new RequestActivity();
    const sampler = new LoopShareSampler(activity, new QueuedLoopLoad([0.9, 0.3, 0.5]));
    sampler.onModuleInit();
    expect(activity.loopShare()).toBe(0);
    jest.advanceTimersByTime(LOOP_SAMPLE_MS);
    expect(activity.loopShare()).toBe(0.9);
    jest.advanceTimersByTime(LOOP_SAMPLE_MS);
    expect(activity.loopShare()).toBe(0.3);
    sampler.onModuleDestroy();
    jest.advanceTimersByTime(LOOP_SAMPLE_MS);
    expect(activity.loopShare()).toBe(0.3);
  });
});
