import { Injectable, Module, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';

/** A request within this long means the API is serving: background work then yields to it. */
export const RECENT_REQUEST_MS = 200;
/** How often the API's event loop's busy share is sampled. */
export const LOOP_SAMPLE_MS = 100;

/** The record's cells: when the last request arrived (ms since the epoch), and the loop's busy share. */
const LAST_ARRIVAL = 0;
const LOOP_SHARE = 1;
const RECORD_BYTES = 2 * Float64Array.BYTES_PER_ELEMENT;

/** Milliseconds since the epoch, monotonic within a thread and comparable across threads. */
const TIME_ORIGIN = performance.timeOrigin;
const nowMs = (): number => TIME_ORIGIN + performance.now();

/**
 * How busy the API is: when it last received a request, and how busy its event loop has been.
 * Background work (webhook delivery) reads it to leave the cores to requests, on this thread or on
 * a worker thread: the record lives in a `SharedArrayBuffer`, written here, read there without a
 * message. A torn read (a number written while read) would only mistime one delivery.
 *
 * Only arrivals are recorded: a long-lived event stream counts once, when it opens, not for as
 * long as it stays open.
 */
export class RequestActivity {
  private readonly cells: Float64Array;

  /** A record of its own, or a view of one that another thread writes. */
  constructor(readonly shared = new SharedArrayBuffer(RECORD_BYTES)) {
    this.cells = new Float64Array(shared);
  }

  /** Registered first in the middleware chain, so every request counts, whatever it is answered. */
  readonly middleware = (_request: Request, _response: Response, next: NextFunction): void => {
    this.cells[LAST_ARRIVAL] = nowMs();
    next();
  };

  servingRequests(): boolean {
    return nowMs() - this.cells[LAST_ARRIVAL]! < RECENT_REQUEST_MS;
  }

  /** The API's event loop's busy share (0 to 1) over the last sample. */
  loopShare(): number {
    return this.cells[LOOP_SHARE]!;
  }

  recordLoopShare(share: number): void {
    this.cells[LOOP_SHARE] = share;
  }
}

/** How busy the event loop has been. */
export abstract class EventLoopLoad {
  /** The loop's busy share (0 to 1) since the previous call. */
  abstract sample(): number;
}

/** Node's event-loop utilization between successive samples. */
@Injectable()
export class NodeEventLoopLoad extends EventLoopLoad {
  private previous = performance.eventLoopUtilization();

  sample(): number {
    const current = performance.eventLoopUtilization();
    const share = performance.eventLoopUtilization(current, this.previous).utilization;
    this.previous = current;
    return share;
  }
}

/** Writes the API's event loop's busy share into its {@link RequestActivity}, every {@link LOOP_SAMPLE_MS}. */
@Injectable()
export class LoopShareSampler implements OnModuleInit, OnModuleDestroy {
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly activity: RequestActivity,
    private readonly loopLoad: EventLoopLoad,
  ) {}

  onModuleInit(): void {
    this.timer = setInterval(() => this.activity.recordLoopShare(this.loopLoad.sample()), LOOP_SAMPLE_MS);
    this.timer.unref();
  }

  onModuleDestroy(): void {
    if (this.timer !== null) clearInterval(this.timer);
  }
}

/** One {@link RequestActivity} for the HTTP setup that records it and the modules that read it. */
@Module({
  providers: [
    { provide: RequestActivity, useFactory: () => new RequestActivity() },
    { provide: EventLoopLoad, useClass: NodeEventLoopLoad },
    LoopShareSampler,
  ],
  exports: [RequestActivity],
})
export class RequestActivityModule {}
