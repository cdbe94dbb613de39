import { Injectable, Module } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';

/** A request within this long means the API is serving: background work then yields to it. */
export const RECENT_REQUEST_MS = 200;

/**
 * When the API last received a request. Background work on the same event loop (webhook
 * delivery) asks {@link servingRequests} to leave the loop to them. Only arrivals are recorded:
 * a long-lived event stream counts once, when it opens, not for as long as it stays open.
 */
@Injectable()
export class RequestActivity {
  private lastArrival = Number.NEGATIVE_INFINITY;

  /** Registered first in the middleware chain, so every request counts, whatever it is answered. */
  readonly middleware = (_request: Request, _response: Response, next: NextFunction): void => {
    this.lastArrival = performance.now();
    next();
  };

  servingRequests(): boolean {
    return performance.now() - this.lastArrival < RECENT_REQUEST_MS;
  }
}

/** One {@link RequestActivity} for the HTTP setup that records and the modules that read it. */
@Module({ providers: [RequestActivity], exports: [RequestActivity] })
export class RequestActivityModule {}
