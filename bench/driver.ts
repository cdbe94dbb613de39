import { get } from 'node:http';
import autocannon from 'autocannon';
import { cpuMillisOf } from './proc-stats.js';

/**
 * The load generator, in its own process so that its CPU is not the server's: the harness forks
 * it once and sends it one run at a time over IPC. Paths rotate round-robin across requests, so
 * a list of distinct numeros makes every detail request a different process.
 */
export interface DriveRequest {
  id: number;
  url: string;
  paths: string[];
  headers: Record<string, string>;
  /** A POST with this body (the token endpoint's form, say); a GET without. */
  body?: string;
  connections: number;
  durationSeconds: number;
  /** The server's process: its CPU is read right before and right after the run, nothing else in between. */
  serverPid?: number;
}

export interface DriveResult {
  id: number;
  requests: number;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  /** Mean body bytes of a response as received (compressed when the server compressed it). */
  bodyBytes: number | null;
  /** Paths used (the rotation's position after the run). */
  used: number;
  /** The server's CPU (user + system) during the run alone, ms; null without `serverPid`. */
  serverCpuMs: number | null;
  /**
   * The part of it spent off the server's main thread, ms: V8's garbage-collection helpers above
   * all, which a V8 CPU profile of the main thread does not see.
   */
  serverOffMainCpuMs: number | null;
}

/** The body of one answer as received, in bytes: node:http leaves a gzip body compressed. */
function bodyBytesOf(url: string, path: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    get(new URL(path, url), { headers }, (response) => {
      let bytes = 0;
      response.on('data', (chunk: Buffer) => (bytes += chunk.length));
      response.on('end', () => resolve(bytes));
      response.on('error', reject);
    }).on('error', reject);
  });
}

async function drive(request: DriveRequest): Promise<DriveResult> {
  let next = 0;
  const paths = request.paths;
  const pid = request.serverPid;
  const cpuBefore = pid === undefined ? null : { all: cpuMillisOf(pid), main: cpuMillisOf(pid, pid) };
  const result = await autocannon({
    url: request.url,
    connections: request.connections,
    duration: request.durationSeconds,
    timeout: 10,
    headers: request.headers,
    requests: [
      {
        method: request.body === undefined ? 'GET' : 'POST',
        ...(request.body !== undefined && { body: request.body }),
        setupRequest: (req) => ({ ...req, path: paths[next++ % paths.length] }),
      },
    ],
  });
  const cpu =
    pid === undefined || cpuBefore === null
      ? null
      : { all: cpuMillisOf(pid) - cpuBefore.all, main: cpuMillisOf(pid, pid) - cpuBefore.main };
  // autocannon counts the headers with the body and keeps no body of its own, so the run's first
  // paths (up to ten) are asked once more, with the same headers, and their bodies counted: after
  // the CPU was read, so these requests are not in it.
  const sample = request.body === undefined ? paths.slice(0, Math.min(next, 10)) : [];
  let bytes = 0;
  for (const path of sample) bytes += await bodyBytesOf(request.url, path, request.headers);
  return {
    id: request.id,
    requests: result.requests.total,
    rps: result.requests.total / result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts + result.non2xx,
    bodyBytes: sample.length === 0 ? null : bytes / sample.length,
    used: next,
    serverCpuMs: cpu === null ? null : cpu.all,
    serverOffMainCpuMs: cpu === null ? null : cpu.all - cpu.main,
  };
}

process.on('message', (message: DriveRequest) => {
  drive(message).then(
    (result) => process.send?.(result),
    (error: unknown) => process.send?.({ id: message.id, error: String(error) }),
  );
});
process.on('disconnect', () => process.exit(0));
