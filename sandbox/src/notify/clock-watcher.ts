import type { Sandbox } from '../control/sandbox.js';
import type { TimeSource } from '../control/sandbox-clock.js';

const PAGE_LIMIT = 1000;

/**
 * Finds what the passing of time changed in the simulation (a ship arrives, a note is withdrawn)
 * and reports the numeros, so that the service hears of those changes as of control calls. It
 * looks every `intervalMs` and whenever told the clock moved.
 */
export class ClockWatcher {
  private checkedUpTo: string;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly sandbox: Sandbox,
    private readonly clock: TimeSource,
    private readonly report: (numeros: string[]) => void,
    private readonly intervalMs = 2000,
  ) {
    this.checkedUpTo = this.clock.now().toISOString();
  }

  start(): void {
    this.timer = setInterval(() => this.check(), this.intervalMs);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
  }

  /** Reports every process whose change became visible since the last look. */
  check(): void {
    const since = this.checkedUpTo;
    this.checkedUpTo = this.clock.now().toISOString();
    const numeros: string[] = [];
    let cursor: string | null = null;
    do {
      const page = this.sandbox.listChangedProcesses({ updatedSince: since, cursor, limit: PAGE_LIMIT });
      for (const process of page.items) {
        // Control calls and resets report their own changes as they make them (stamped ahead of a
        // standing clock, some), and a process the control API touched no longer moves with time:
        // reported again here, each would cost the service another sync.
        const reported =
          this.sandbox.isControlled(process.numero) ||
          Date.parse(process.updatedAt) > Date.parse(this.checkedUpTo);
        if (!reported) numeros.push(process.numero);
      }
      cursor = page.nextCursor;
    } while (cursor !== null);
    if (numeros.length > 0) this.report(numeros);
  }
}
