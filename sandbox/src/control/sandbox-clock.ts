/** What tells the sandbox the time; tests and the control API move it. */
export interface TimeSource {
  now(): Date;
}

export interface ClockState {
  now: string;
  frozen: boolean;
}

/**
 * The sandbox's time: the machine's clock plus an offset, or frozen at one instant. Freezing stops
 * everything the simulation would do by itself; advancing moves time forward at once (frozen or not).
 */
export class SandboxClock implements TimeSource {
  private offsetMs = 0;
  private frozenAtMs: number | null = null;

  constructor(private readonly wallClock: () => number = Date.now) {}

  /** A clock standing at `at` until advanced or resumed: what a replayable test or benchmark runs on. */
  static frozenAt(at: Date): SandboxClock {
    const clock = new SandboxClock(() => at.getTime());
    clock.freeze();
    return clock;
  }

  now(): Date {
    return new Date(this.frozenAtMs ?? this.wallClock() + this.offsetMs);
  }

  state(): ClockState {
    return { now: this.now().toISOString(), frozen: this.frozenAtMs !== null };
  }

  freeze(): void {
    this.frozenAtMs ??= this.now().getTime();
  }

  resume(): void {
    if (this.frozenAtMs === null) return;
    this.offsetMs = this.frozenAtMs - this.wallClock();
    this.frozenAtMs = null;
  }

  advance(milliseconds: number): void {
    if (!(Number.isFinite(milliseconds) && milliseconds >= 0)) {
      throw new RangeError('the clock only moves forward');
    }
    if (this.frozenAtMs === null) this.offsetMs += milliseconds;
    else this.frozenAtMs += milliseconds;
  }
}

const DURATION = /^P(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+(?:\.\d+)?)S)?)?$/;

/** Milliseconds of an ISO 8601 duration in days, hours, minutes and seconds (`PT6H`, `P2DT30M`); NaN otherwise. */
export function parseDuration(text: string): number {
  const match = DURATION.exec(text);
  if (match === null || text === 'P' || text.endsWith('T')) return NaN;
  const [days, hours, minutes, seconds] = match.slice(1).map((part) => Number(part ?? 0));
  return (((days ?? 0) * 24 + (hours ?? 0)) * 60 + (minutes ?? 0)) * 60_000 + (seconds ?? 0) * 1000;
}
