import { createConnection, createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

/**
 * A TCP proxy on 127.0.0.1 between the service and a server of ours (PostgreSQL, Redis), to fail
 * the network the way production does without touching the shared server: {@link freeze} stops
 * forwarding in both directions while every socket stays open (a hung server, a stalled network),
 * {@link resume} lets the held bytes through.
 */
export class TcpProxy {
  private frozen = false;
  private readonly pairs = new Set<[Socket, Socket]>();
  /** Bytes the clients have sent towards the server so far (what the service asked of it). */
  bytesToServer = 0;

  private constructor(private readonly server: Server) {}

  static async start(target: { host: string; port: number }): Promise<TcpProxy> {
    const server = createServer();
    const proxy = new TcpProxy(server);
    server.on('connection', (client) => proxy.accept(client, target));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return proxy;
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  /** `url` with its host and port replaced by the proxy's. */
  urlFor(url: string): string {
    const proxied = new URL(url);
    proxied.hostname = '127.0.0.1';
    proxied.port = String(this.port);
    return proxied.toString();
  }

  freeze(): void {
    this.frozen = true;
    for (const [client, upstream] of this.pairs) {
      client.pause();
      upstream.pause();
    }
  }

  resume(): void {
    this.frozen = false;
    for (const [client, upstream] of this.pairs) {
      client.resume();
      upstream.resume();
    }
  }

  async close(): Promise<void> {
    for (const [client, upstream] of this.pairs) {
      client.destroy();
      upstream.destroy();
    }
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private accept(client: Socket, target: { host: string; port: number }): void {
    const upstream = createConnection(target);
    const pair: [Socket, Socket] = [client, upstream];
    this.pairs.add(pair);
    client.on('data', (chunk: Buffer) => (this.bytesToServer += chunk.length));
    client.pipe(upstream);
    upstream.pipe(client);
    if (this.frozen) {
      client.pause();
      upstream.pause();
    }
    const drop = () => {
      this.pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on('error', drop).on('close', drop);
    upstream.on('error', drop).on('close', drop);
  }
}
