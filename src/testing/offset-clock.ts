import { Clock } from '../common/clock.js';

/** A clock that runs with the system's, ahead of it (or behind) by as much as the test says. */
export class OffsetClock extends Clock {
  offsetMs = 0;

  now(): Date {
    return new Date(Date.now() + this.offsetMs);
  }
}
