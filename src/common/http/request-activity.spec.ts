import { jest } from '@jest/globals';
import type { NextFunction, Request, Response } from 'express';
import { RECENT_REQUEST_MS, RequestActivity } from './request-activity.js';

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
});
