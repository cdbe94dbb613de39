import { Clock } from '../common/clock.js';

/** A clock that moves only when the test says so. */
export class FakeClock extends Clock {
  constructor(private current = new Date('2026-03-14T12:00:00Z')) {
    super();
  }

  now(): Date {
    return new Date(this.current);
  }

  set(date: Date): void {
    this.current = new Date(date);
  }

  advance(milliseconds: number): void {
    this.current = new Date(this.current.getTime() + milliseconds);
  }
}
