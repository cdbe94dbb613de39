import type {
  ChangedProcessesPage,
  ChangedProcessesQuery,
  Customer,
  OperationsProcess,
  OperationsProcessDetail,
} from '../upstream/upstream-api.js';
import { ChangeFeed, InvalidQueryError } from './change-feed.js';
import { customerAt, openMinuteOf, planProcess, type ProcessPlan } from './process-plan.js';
import { detailAt, nextChangeMinute, processAt, updatedMinute } from './process-view.js';
import {
  resolveSimulationOptions,
  type SimulationConfig,
  type SimulationOptions,
} from './simulation-options.js';

export { InvalidQueryError } from './change-feed.js';

/** The most a list page holds, whatever the caller asks. */
export const MAX_PAGE_LIMIT = 1000;

const RFC3339 =
  /^(\d{4})-(\d{2})-(\d{2})T([01]\d|2[0-3]):[0-5]\d:[0-5]\d(\.\d{1,9})?(Z|[+-]([01]\d|2[0-3]):[0-5]\d)$/i;

/** Epoch milliseconds of an RFC 3339 instant with an offset; NaN for anything else (2026-02-30 included). */
export function parseInstant(value: string): number {
  const match = RFC3339.exec(value);
  if (match === null) return NaN;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth ? Date.parse(value) : NaN;
}
const NUMERO = /^(IMP|EXP)-(\d{4})-(\d{6,7})$/;

/**
 * A deterministic stand-in for the company's operations system. Everything is a pure function of
 * the options and the `now` a caller passes: the same inputs always give the same data, a later
 * `now` gives more (new processes, new events) and changed data (statuses, dates, withdrawn notes).
 * Any one process is planned on its own in microseconds, so a million cost nothing until asked for.
 */
export class OperationsSimulator {
  readonly config: SimulationConfig;
  private feed: ChangeFeed | null = null;

  constructor(readonly options: SimulationOptions) {
    this.config = resolveSimulationOptions(options);
  }

  get processCount(): number {
    return this.config.processCount;
  }

  customers(): Customer[] {
    return Array.from({ length: this.config.customerCount }, (_, index) => {
      const { id, name } = customerAt(this.config, index);
      return { id, name };
    });
  }

  /** The clock minute (after the epoch) that decides what is visible at `now`. */
  minuteOf(now: Date): number {
    return Math.floor((now.getTime() - this.config.epochMs) / 60_000);
  }

  plan(index: number): ProcessPlan {
    if (!Number.isInteger(index) || index < 0 || index >= this.config.processCount) {
      throw new RangeError(`process index ${index} is outside 0..${this.config.processCount - 1}`);
    }
    return planProcess(this.config, index);
  }

  /** The index of a numero (case-insensitive), or null when it is none of ours. */
  indexOf(numero: string): number | null {
    const normalized = numero.trim().toUpperCase();
    const match = NUMERO.exec(normalized);
    const index = match?.[3] !== undefined ? Number(match[3]) - 1 : -1;
    if (index < 0 || index >= this.config.processCount) {
      return null;
    }
    return planProcess(this.config, index).numero === normalized ? index : null;
  }

  processAt(index: number, now: Date): OperationsProcess | null {
    return processAt(this.plan(index), this.config, this.minuteOf(now));
  }

  detailAt(index: number, now: Date): OperationsProcessDetail | null {
    return detailAt(this.plan(index), this.config, this.minuteOf(now));
  }

  getProcess(numero: string, now: Date): OperationsProcess | null {
    const index = this.indexOf(numero);
    return index === null ? null : this.processAt(index, now);
  }

  getProcessDetail(numero: string, now: Date): OperationsProcessDetail | null {
    const index = this.indexOf(numero);
    return index === null ? null : this.detailAt(index, now);
  }

  /** Every process that exists at `now`, in numero order, one at a time (for bulk loads). */
  *processesAt(now: Date): Generator<OperationsProcess> {
    const minute = this.minuteOf(now);
    for (let index = 0; index < this.config.processCount; index++) {
      const process = processAt(planProcess(this.config, index), this.config, minute);
      if (process !== null) {
        yield process;
      }
    }
  }

  /**
   * Processes whose `updatedAt` is strictly after `updatedSince`, oldest change first (ties by
   * number), resuming after `cursor`. Throws {@link InvalidQueryError} for a malformed query.
   */
  listChangedProcesses(query: ChangedProcessesQuery, now: Date): ChangedProcessesPage {
    const { updatedSince, cursor, limit } = query;
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE_LIMIT) {
      throw new InvalidQueryError('limit', `limit must be an integer between 1 and ${MAX_PAGE_LIMIT}`);
    }
    let sinceMinute: number | null = null;
    if (updatedSince !== null) {
      const sinceMs = parseInstant(updatedSince);
      if (Number.isNaN(sinceMs)) {
        throw new InvalidQueryError(
          'updatedSince',
          'updatedSince must be an RFC 3339 instant with an offset',
        );
      }
      sinceMinute = Math.floor((sinceMs - this.config.epochMs) / 60_000);
    }
    const minute = this.minuteOf(now);
    const page = this.changeFeed().page(minute, sinceMinute, cursor, limit);
    const items: OperationsProcess[] = [];
    for (const { index } of page.entries) {
      const process = processAt(planProcess(this.config, index), this.config, minute);
      if (process !== null) {
        items.push(process);
      }
    }
    return { items, nextCursor: page.nextCursor };
  }

  private changeFeed(): ChangeFeed {
    this.feed ??= new ChangeFeed({
      processCount: this.config.processCount,
      openMinute: (index) => openMinuteOf(this.config, index),
      changes: (index, now) => {
        const plan = planProcess(this.config, index);
        return { updated: updatedMinute(plan, now), next: nextChangeMinute(plan, now) };
      },
    });
    return this.feed;
  }
}
