/** Pure formatting of harness results: no I/O, so a test pins the table's shape. */
import type { DriveResult } from './driver.js';

export const SCENARIOS = [
  'list-default',
  'list-default-gzip',
  'list-100',
  'list-100-gzip',
  'list-filtered',
  'list-container',
  'list-channel-red',
  'list-sea-import',
  'list-arriving-week',
  'list-free-time-3d',
  'changes-page-100',
  'detail-hit',
  'detail-miss',
  // Last of the service's: with OFFSET it can take seconds and leave queued work behind.
  'list-page-500',
  'baseline-list-default',
  'baseline-changes-page-100',
] as const;
export type ScenarioName = (typeof SCENARIOS)[number];

/** Each service scenario with a framework-free twin, and that twin (same requests, same bytes). */
export const BASELINE_OF = new Map<ScenarioName, ScenarioName>([
  ['list-default', 'baseline-list-default'],
  ['changes-page-100', 'baseline-changes-page-100'],
]);
const TWIN_OF = new Map([...BASELINE_OF].map(([scenario, baseline]) => [baseline, scenario]));

/** The most Node CPU a request may cost the service, as a multiple of its twin's. */
export const CPU_RATIO_TARGETS: ReadonlyMap<ScenarioName, number> = new Map([
  ['list-default', 2.0],
  ['changes-page-100', 2.5],
]);

/**
 * The runs of one connection count, in order. A scenario whose twin is selected too runs in
 * `pairs` interleaved pairs (scenario, twin, scenario, twin, ...), so that a burst of other work on
 * the shared cores hits both sides alike; every other scenario runs once.
 */
export function runOrder(
  scenarios: readonly ScenarioName[],
  pairs: number,
): Array<{ scenario: ScenarioName; pair?: number }> {
  return scenarios.flatMap((scenario) => {
    const twin = TWIN_OF.get(scenario);
    if (twin !== undefined && scenarios.includes(twin)) return [];
    const baseline = BASELINE_OF.get(scenario);
    if (baseline === undefined || !scenarios.includes(baseline)) return [{ scenario }];
    return Array.from({ length: pairs }, (_, pair) => [
      { scenario, pair: pair + 1 },
      { scenario: baseline, pair: pair + 1 },
    ]).flat();
  });
}

/** Consecutive warm-up slices whose CPU a request differ by at most this share: the JIT has settled. */
export const SETTLED_WITHIN = 0.05;

/** Whether the last two of the warm-up's CPU-a-request slices agree within {@link SETTLED_WITHIN}. */
export function warmupSettled(cpuPerRequest: readonly number[]): boolean {
  if (cpuPerRequest.length < 2) return false;
  const [previous, last] = cpuPerRequest.slice(-2) as [number, number];
  return Math.abs(last - previous) <= SETTLED_WITHIN * Math.max(last, previous);
}

/** The service's CPU a request over a driver's run, ms (NaN when the run read no CPU). */
export function cpuPerRequest(result: DriveResult): number {
  return (result.serverCpuMs ?? Number.NaN) / result.requests;
}

export function median(values: readonly number[]): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

const GZIP = '-gzip';

/** A `-gzip` scenario sends its twin's requests with `Accept-Encoding: gzip`; any other is its own. */
export function requestsOf(scenario: ScenarioName): { twin: ScenarioName; gzip: boolean } {
  if (!scenario.endsWith(GZIP)) return { twin: scenario, gzip: false };
  return { twin: scenario.slice(0, -GZIP.length) as ScenarioName, gzip: true };
}

export interface ScenarioRow {
  scenario: ScenarioName;
  /** Who asked: `staff` or `acme` (the large customer). */
  user: string;
  connections: number;
  requests: number;
  rps: number;
  p50: number;
  p99: number;
  /** Socket errors, timeouts and non-2xx answers. */
  errors: number;
  /** Node CPU (user + system) of the server per request, ms. */
  cpuMsPerRequest: number | null;
  /** The part of it off the main thread (garbage-collection helpers, mostly), ms. */
  offMainCpuMsPerRequest: number | null;
  /** Mean body bytes of a response as received (compressed when the server compressed it). */
  bytesPerResponse: number | null;
  /** Largest RSS of the server sampled during the run, MiB. */
  rssMb: number | null;
  /** Which interleaved pair the run belongs to (scenarios with a twin). */
  pair?: number;
  /** The service's CPU a request over its twin's in the same pair. */
  cpuRatio?: number | null;
}

/** A scenario's interleaved pairs against its twin, and the verdict on their median CPU ratio. */
export interface PairSummary {
  scenario: ScenarioName;
  user: string;
  connections: number;
  ratios: number[];
  medianRatio: number;
  target: number;
  met: boolean;
  service: { rps: number; p99: number; cpuMsPerRequest: number };
  baseline: { rps: number; p99: number; cpuMsPerRequest: number };
}

/** Sets each paired row's `cpuRatio` and sums the pairs up per scenario, user and connections. */
export function summarisePairs(rows: ScenarioRow[]): PairSummary[] {
  const summaries: PairSummary[] = [];
  for (const [scenario, baseline] of BASELINE_OF) {
    const groups = new Map<string, ScenarioRow[]>();
    for (const row of rows.filter(
      (candidate) => candidate.scenario === scenario && candidate.pair !== undefined,
    )) {
      const key = `${row.user}|${row.connections}`;
      groups.set(key, [...(groups.get(key) ?? []), row]);
    }
    for (const serviceRows of groups.values()) {
      const { user, connections } = serviceRows[0]!;
      const pairs = serviceRows.flatMap((row) => {
        const twin = rows.find(
          (other) =>
            other.scenario === baseline &&
            other.user === user &&
            other.connections === connections &&
            other.pair === row.pair,
        );
        if (twin === undefined || row.cpuMsPerRequest === null || !twin.cpuMsPerRequest) return [];
        row.cpuRatio = row.cpuMsPerRequest / twin.cpuMsPerRequest;
        return [{ row, twin, ratio: row.cpuRatio }];
      });
      if (pairs.length === 0) continue;
      const target = CPU_RATIO_TARGETS.get(scenario)!;
      const medianRatio = median(pairs.map((pair) => pair.ratio));
      const medians = (side: ScenarioRow[]) => ({
        rps: median(side.map((row) => row.rps)),
        p99: median(side.map((row) => row.p99)),
        cpuMsPerRequest: median(side.map((row) => row.cpuMsPerRequest ?? NaN)),
      });
      summaries.push({
        scenario,
        user,
        connections,
        ratios: pairs.map((pair) => pair.ratio),
        medianRatio,
        target,
        met: medianRatio <= target,
        service: medians(pairs.map((pair) => pair.row)),
        baseline: medians(pairs.map((pair) => pair.twin)),
      });
    }
  }
  return summaries;
}

/** The pairs' verdicts as a Markdown table. */
export function formatPairs(summaries: readonly PairSummary[]): string {
  const lines = [
    '| scenario | as | conn | pairs: CPU ratio | median ratio | target | service req/s, p99 ms, CPU ms/req | baseline req/s, p99 ms, CPU ms/req |',
    '|---|---|---|---|---|---|---|---|',
  ];
  const side = (medians: PairSummary['service']): string =>
    `${medians.rps.toFixed(0)}, ${medians.p99.toFixed(0)}, ${medians.cpuMsPerRequest.toFixed(2)}`;
  for (const summary of summaries) {
    lines.push(
      `| ${summary.scenario} | ${summary.user} | ${summary.connections} | ` +
        `${summary.ratios.map((ratio) => ratio.toFixed(2)).join(', ')} | ${summary.medianRatio.toFixed(2)} | ` +
        `${summary.met ? 'ok' : 'MISS'} <= ${summary.target.toFixed(1)} | ${side(summary.service)} | ${side(summary.baseline)} |`,
    );
  }
  return lines.join('\n');
}

export interface Target {
  text: string;
  met: boolean;
}

/** The targets for one row; several may apply (all must be met). */
export function targetsOf(row: ScenarioRow, driver: 'postgres' | 'pglite'): Target[] {
  if (row.requests === 0) return [{ text: 'no answers', met: false }];
  const targets: Target[] = [];
  const p99Under = (ms: number): void => {
    targets.push({ text: `p99<${ms}`, met: row.p99 < ms });
  };
  const at16 = row.connections >= 16;
  switch (row.scenario) {
    case 'list-default-gzip':
      // The twin's latency targets; the baseline and CPU ones are the uncompressed list's.
      if (driver === 'pglite') break;
      if (row.connections <= 4) p99Under(30);
      else if (at16) p99Under(80);
      break;
    case 'list-default':
      if (driver === 'pglite') {
        if (row.connections === 4) targets.push({ text: 'rps>=120', met: row.rps >= 120 });
        break;
      }
      if (row.connections <= 4) p99Under(30);
      else if (at16) p99Under(80);
      cpuRatioUnder(row, targets);
      break;
    case 'list-100':
    case 'list-100-gzip':
      if (at16) p99Under(150);
      break;
    case 'list-filtered':
    case 'list-container':
    case 'list-channel-red':
    case 'list-sea-import':
    case 'list-arriving-week':
    case 'list-free-time-3d':
      if (at16) p99Under(80);
      break;
    case 'changes-page-100':
      if (at16) p99Under(20);
      cpuRatioUnder(row, targets);
      break;
    case 'list-page-500':
      p99Under(80);
      break;
    case 'detail-hit':
      p99Under(10);
      break;
    case 'detail-miss':
      p99Under(80);
      break;
    case 'baseline-list-default':
    case 'baseline-changes-page-100':
      return [];
  }
  if (row.rssMb !== null) targets.push({ text: 'rss<300', met: row.rssMb < 300 });
  if (row.errors > 0) targets.push({ text: 'no errors', met: false });
  return targets;
}

/** A paired run's own CPU ratio (the verdict is on the pairs' median, in {@link summarisePairs}). */
function cpuRatioUnder(row: ScenarioRow, targets: Target[]): void {
  const target = CPU_RATIO_TARGETS.get(row.scenario);
  if (target === undefined || row.cpuRatio === undefined || row.cpuRatio === null) return;
  targets.push({ text: `cpu<=${target.toFixed(1)}x base`, met: row.cpuRatio <= target });
}

export const TABLE_COLUMNS = [
  'scenario',
  'pair',
  'as',
  'conn',
  'req/s',
  'p50 ms',
  'p99 ms',
  'cpu vs base',
  'cpu ms/req',
  'off main',
  'bytes/resp',
  'rss MB',
  'errors',
  'targets',
] as const;

/** A plain-text table (Markdown pipe syntax, so it pastes into docs as is). */
export function formatTable(rows: readonly ScenarioRow[], driver: 'postgres' | 'pglite'): string {
  const body = rows.map((row) => {
    const targets = targetsOf(row, driver);
    return [
      row.scenario,
      row.pair === undefined ? '' : String(row.pair),
      row.user,
      String(row.connections),
      row.rps.toFixed(0),
      row.p50.toFixed(1),
      row.p99.toFixed(1),
      row.cpuRatio === undefined || row.cpuRatio === null ? '' : `${row.cpuRatio.toFixed(2)}x`,
      row.cpuMsPerRequest === null ? '' : row.cpuMsPerRequest.toFixed(2),
      row.offMainCpuMsPerRequest === null ? '' : row.offMainCpuMsPerRequest.toFixed(2),
      row.bytesPerResponse === null ? '' : row.bytesPerResponse.toFixed(0),
      row.rssMb === null ? '' : row.rssMb.toFixed(0),
      String(row.errors),
      targets.map((target) => `${target.met ? 'ok' : 'MISS'} ${target.text}`).join(', '),
    ];
  });
  const table = [[...TABLE_COLUMNS], ...body];
  const widths = TABLE_COLUMNS.map((_, column) => Math.max(...table.map((cells) => cells[column]!.length)));
  const line = (cells: readonly string[]): string =>
    `| ${cells.map((cell, column) => cell.padEnd(widths[column]!)).join(' | ')} |`;
  const rule = `|${widths.map((width) => '-'.repeat(width + 2)).join('|')}|`;
  return [line(table[0]!), rule, ...table.slice(1).map(line)].join('\n');
}
