/**
 * The time source, injected so tests can move time instead of waiting for it. Provided once, by
 * `ClockModule`; nothing else in the application reads the system time for "now".
 */
export abstract class Clock {
  abstract now(): Date;
}

export class SystemClock extends Clock {
  now(): Date {
    return new Date();
  }
}
