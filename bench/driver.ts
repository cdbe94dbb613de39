import autocannon from 'autocannon';

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
  connections: number;
  durationSeconds: number;
}

export interface DriveResult {
  id: number;
  requests: number;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  /** Paths used (the rotation's position after the run). */
  used: number;
}

async function drive(request: DriveRequest): Promise<DriveResult> {
  let next = 0;
  const paths = request.paths;
  const result = await autocannon({
    url: request.url,
    connections: request.connections,
    duration: request.durationSeconds,
    timeout: 10,
    headers: request.headers,
    requests: [
      {
        method: 'GET',
        setupRequest: (req) => ({ ...req, path: paths[next++ % paths.length] }),
      },
    ],
  });
  return {
    id: request.id,
    requests: result.requests.total,
    rps: result.requests.total / result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts + result.non2xx,
    used: next,
  };
}

process.on('message', (message: DriveRequest) => {
  drive(message).then(
    (result) => process.send?.(result),
    (error: unknown) => process.send?.({ id: message.id, error: String(error) }),
  );
});
process.on('disconnect', () => process.exit(0));
