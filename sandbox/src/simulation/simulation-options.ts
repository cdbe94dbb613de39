import { DAY_MS } from './time.js';

/** What one simulated operations system is made of; the same options always give the same data. */
export interface SimulationOptions {
  seed: number;
  /** 1 to 2,000,000. */
  processCount: number;
  /** At least 3: `acme`, `globex` and `initech` always exist. */
  customerCount: number;
  /** The instant timelines are laid out from; a whole minute. */
  epoch: Date;
  /**
   * Processes open evenly over `[epoch, epoch + openWindowDays)`. With the demo epoch 150 days
   * back, the default 156 leaves a few percent to open in the coming days.
   */
  openWindowDays?: number;
  /**
   * Sea voyages publish their ship's position this often (minutes), each report replacing the
   * last: the demo's steady trickle of live changes. Unset: no position reports.
   */
  positionReportMinutes?: number;
}

/** Fully resolved options, times in epoch milliseconds and minutes. */
export interface SimulationConfig {
  seed: number;
  processCount: number;
  customerCount: number;
  epochMs: number;
  openWindowMinutes: number;
  positionReportMinutes: number | null;
}

export const MAX_PROCESS_COUNT = 2_000_000;
const MINUTE_MS = 60_000;

/** The demo configuration; the epoch follows the clock, see {@link demoSimulationOptions}. */
export const DEMO_SIMULATION = {
  seed: 20260314,
  processCount: 360,
  customerCount: 6,
  epochDaysBeforeNow: 150,
  openWindowDays: 156,
  /**
   * About 40 ships are at sea in the demo: a few position reports a minute between them, each
   * with the ship's estimate of its arrival (so a few summary ETAs move a minute).
   */
  positionReportMinutes: 10,
} as const;

/**
 * The demo options for a given moment: epoch 150 days before `now`, floored to UTC midnight, so
 * the data looks the same shape whatever the date (timelines are relative to the epoch) and stays
 * the same all day.
 */
export function demoSimulationOptions(now: Date): SimulationOptions {
  const midnight = Math.floor(now.getTime() / DAY_MS) * DAY_MS;
  return {
    seed: DEMO_SIMULATION.seed,
    processCount: DEMO_SIMULATION.processCount,
    customerCount: DEMO_SIMULATION.customerCount,
    epoch: new Date(midnight - DEMO_SIMULATION.epochDaysBeforeNow * DAY_MS),
    openWindowDays: DEMO_SIMULATION.openWindowDays,
    positionReportMinutes: DEMO_SIMULATION.positionReportMinutes,
  };
}

export function resolveSimulationOptions(options: SimulationOptions): SimulationConfig {
  const { seed, processCount, customerCount, epoch } = options;
  const openWindowDays = options.openWindowDays ?? DEMO_SIMULATION.openWindowDays;
  if (!Number.isInteger(seed)) {
    throw new RangeError('seed must be an integer');
  }
  if (!Number.isInteger(processCount) || processCount < 1 || processCount > MAX_PROCESS_COUNT) {
    throw new RangeError(`processCount must be an integer between 1 and ${MAX_PROCESS_COUNT}`);
  }
  if (!Number.isInteger(customerCount) || customerCount < 3 || customerCount > processCount + 3) {
    throw new RangeError(
      'customerCount must be an integer of at least 3 (and not absurdly above processCount)',
    );
  }
  const epochMs = epoch.getTime();
  if (!Number.isFinite(epochMs) || epochMs % MINUTE_MS !== 0) {
    throw new RangeError('epoch must be a valid instant on a whole minute');
  }
  if (!(openWindowDays > 0 && openWindowDays <= 3650)) {
    throw new RangeError('openWindowDays must be between 0 (exclusive) and 3650');
  }
  const { positionReportMinutes } = options;
  if (
    positionReportMinutes !== undefined &&
    !(Number.isInteger(positionReportMinutes) && positionReportMinutes >= 1)
  ) {
    throw new RangeError('positionReportMinutes must be a whole number of minutes, at least 1');
  }
  return {
    seed: seed >>> 0,
    processCount,
    customerCount,
    epochMs,
    openWindowMinutes: Math.round(openWindowDays * 1440),
    positionReportMinutes: positionReportMinutes ?? null,
  };
}
