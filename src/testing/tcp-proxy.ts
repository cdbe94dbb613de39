import { createConnection, createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

/**
 * A TCP proxy on 127.0.0.1 between the service and a server of ours (PostgreSQL, Redis), to fail
 * the network the way production does without touching the shared server: {@link freeze} holds
 * every byte in both directions while every socket stays open (a hung server, a stalled network),
 * {@link resume} lets the held bytes through, in order.
 */
export class TcpProxy {
  private frozen = false;
  private readonly links = new Set<Link>();
  /**
   * Bytes the clients have sent towards the server so far, held ones included: what the service
   * asked of it, even while it could not answer.
   */
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
  }

  resume(): void {
    this.frozen = false;
    for (const link of this.links) {
      for (const chunk of link.toServer.splice(0)) writeIfOpen(link.upstream, chunk);
      for (const chunk of link.toClient.splice(0)) writeIfOpen(link.client, chunk);
    }
  }

  async close(): Promise<void> {
    for (const { client, upstream } of this.links) {
      client.destroy();
      upstream.destroy();
    }
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private accept(client: Socket, target: { host: string; port: number }): void {
    const link: Link = { client, upstream: createConnection(target), toServer: [], toClient: [] };
    this.links.add(link);
    client.on('data', (chunk: Buffer) => {
      this.bytesToServer += chunk.length;
      this.forward(chunk, link.upstream, link.toServer);
    });
    link.upstream.on('data', (chunk: Buffer) => this.forward(chunk, client, link.toClient));
    client.on('end', () => link.upstream.end());
    link.upstream.on('end', () => client.end());
    const drop = () => {
      this.links.delete(link);
      client.destroy();
      link.upstream.destroy();
    };
    client.on('error', drop).on('close', drop);
    link.upstream.on('error', drop).on('close', drop);
  }

  private forward(chunk: Buffer, to: Socket, held: Buffer[]): void {
    if (this.frozen) held.push(chunk);
    else writeIfOpen(to, chunk);
  }
}

/** A client's connection and the proxy's own to the server, with what each side sent while frozen. */
interface Link {
  client: Socket;
  upstream: Socket;
  toServer: Buffer[];
  toClient: Buffer[];
}

function writeIfOpen(socket: Socket, chunk: Buffer): void {
  if (socket.writable) socket.write(chunk);
}
