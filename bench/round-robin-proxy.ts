import { createConnection, createServer, type Server, type Socket } from 'node:net';

/**
 * A load balancer as small as it gets: TCP, each new connection to the next backend in rotation,
 * a backend in rotation while its `/health/ready` answers 200 (asked every 200 ms, as an
 * orchestrator's readiness probe would; out at its first other answer, or after three probes
 * unanswered within 2 s, as on a loaded machine), every backend tried when none is ready, and a
 * connection refused by one backend tried on the next. A connection stays with its backend until
 * either side closes it; a reset on one side is passed on as a reset to the other.
 */
export class RoundRobinProxy {
  private readonly ready = new Set<number>();
  private readonly unanswered = new Map<number, number>();
  private readonly sockets = new Set<Socket>();
  private next = 0;
  private readonly timer: NodeJS.Timeout;
  /** Connections the proxy could not place on any backend. */
  unplaced = 0;
  /** Connections placed while no backend was ready. */
  placedBlind = 0;

  private constructor(
    private readonly server: Server,
    private readonly backends: number[],
  ) {
    this.timer = setInterval(() => void this.probe(), 200);
    this.timer.unref();
  }

  static async start(port: number, backends: number[]): Promise<RoundRobinProxy> {
    const server = createServer();
    const proxy = new RoundRobinProxy(server, backends);
    server.on('connection', (client) => proxy.place(client, proxy.rotation()));
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    await proxy.probe();
    return proxy;
  }

  /** Stops listening and drops every connection still open (server.close alone waits for them). */
  async close(): Promise<void> {
    clearInterval(this.timer);
    const closed = new Promise((resolve) => this.server.close(resolve));
    for (const socket of this.sockets) socket.destroy();
    await closed;
  }

  /** The backends in rotation, starting from the next one's turn. */
  private rotation(): number[] {
    let ready = this.backends.filter((port) => this.ready.has(port));
    if (ready.length === 0) {
      this.placedBlind++;
      ready = this.backends;
    }
    const start = this.next++ % Math.max(1, ready.length);
    return [...ready.slice(start), ...ready.slice(0, start)];
  }

  private place(client: Socket, candidates: number[]): void {
    const [port, ...others] = candidates;
    client.pause();
    client.on('error', () => {});
    if (port === undefined) {
      this.unplaced++;
      client.resetAndDestroy();
      return;
    }
    const backend = createConnection(port, '127.0.0.1');
    this.track(client);
    this.track(backend);
    let connected = false;
    backend.once('connect', () => {
      connected = true;
      client.pipe(backend);
      backend.pipe(client);
      client.resume();
    });
    backend.on('error', () => {
      if (!connected) this.place(client, others);
      else if (!client.destroyed) client.resetAndDestroy();
    });
    client.on('error', () => {
      if (!backend.destroyed) backend.resetAndDestroy();
    });
    client.on('close', (hadError) => {
      if (hadError && !backend.destroyed) backend.resetAndDestroy();
    });
  }

  private track(socket: Socket): void {
    this.sockets.add(socket);
    socket.once('close', () => this.sockets.delete(socket));
  }

  private async probe(): Promise<void> {
    await Promise.all(
      this.backends.map(async (port) => {
        try {
          const response = await fetch(`http://127.0.0.1:${port}/health/ready`, {
            signal: AbortSignal.timeout(2000),
          });
          await response.arrayBuffer();
          this.unanswered.set(port, 0);
          if (response.status === 200) this.ready.add(port);
          else this.ready.delete(port);
        } catch {
          const unanswered = (this.unanswered.get(port) ?? 0) + 1;
          this.unanswered.set(port, unanswered);
          if (unanswered >= 3) this.ready.delete(port);
        }
      }),
    );
  }
}
