/** Pure formatting of harness results: no I/O, so a test pins the table's shape. */

export const SCENARIOS = [
  'list-default',
  'list-default-gzip',
  'list-100',
  'list-100-gzip',
  'list-filtered',
  'list-container',
  'list-channel-red',
  'list-sea-import',
  'changes-page-100',
  'detail-hit',
  'detail-miss',
  // Last of the service's: with OFFSET it can take seconds and leave queued work behind.
  'list-page-500',
  'baseline-list-default',
  'baseline-changes-page-100',
] as const;
export type ScenarioName = (typeof SCENARIOS)[number];

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
  /** Mean body bytes of a response as received (compressed when the server compressed it). */
  bytesPerResponse: number | null;
  /** Largest RSS of the server sampled during the run, MiB. */
  rssMb: number | null;
  /** list-default and changes-page-100: our req/s over their baseline's at the same user and connections. */
  baselineRatio?: number | null;
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
      if (row.baselineRatio !== undefined && row.baselineRatio !== null) {
        targets.push({ text: 'base>=90%', met: row.baselineRatio >= 0.9 });
      }
      if (row.cpuMsPerRequest !== null) {
        targets.push({ text: 'cpu<1.5', met: row.cpuMsPerRequest < 1.5 });
      }
      break;
    case 'list-100':
    case 'list-100-gzip':
      if (at16) p99Under(150);
      break;
    case 'list-filtered':
    case 'list-container':
    case 'list-channel-red':
    case 'list-sea-import':
      if (at16) p99Under(80);
      break;
    case 'changes-page-100':
      if (at16) p99Under(20);
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

export const TABLE_COLUMNS = [
  'scenario',
  'as',
  'conn',
  'req/s',
  'p50 ms',
  'p99 ms',
  'vs base',
  'cpu ms/req',
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
      row.user,
      String(row.connections),
      row.rps.toFixed(0),
      row.p50.toFixed(1),
      row.p99.toFixed(1),
      row.baselineRatio === undefined || row.baselineRatio === null
        ? ''
        : `${(row.baselineRatio * 100).toFixed(0)}%`,
      row.cpuMsPerRequest === null ? '' : row.cpuMsPerRequest.toFixed(2),
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
