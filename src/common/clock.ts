/**
 * The time source, injected so tests can move time instead of waiting for it. Provided once, by
 * `ClockModule`, for the service, the sync, the rate limits and the webhooks.
 */
export abstract class Clock {
  abstract now(): Date;
}

export class SystemClock extends Clock {
  now(): Date {
    return new Date();
  }
}
