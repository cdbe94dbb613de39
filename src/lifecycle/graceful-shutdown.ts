import type { IncomingMessage, Server } from 'node:http';
import type { Socket } from 'node:net';
import { Logger, type INestApplication } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { ShutdownState } from './shutdown.state.js';

/** After the grace period: a stuck hook or connection must not keep a terminated instance around. */
export const HARD_SHUTDOWN_TIMEOUT_MS = 10_000;
const IDLE_CONNECTION_SWEEP_MS = 100;

const SIGNALS = ['SIGTERM', 'SIGINT'] as const;

/**
 * While the service drains, every answer asks the client to close its connection, so that a
 * keep-alive client opens a new one (to another instance) instead of reusing one that is about to
 * be closed under it.
 */
export function closeConnectionsWhileDraining(state: ShutdownState) {
  return (_request: Request, response: Response, next: NextFunction): void => {
    if (state.isShuttingDown) response.setHeader('Connection', 'close');
    next();
  };
}

/**
 * On SIGTERM or SIGINT: readiness turns 503 at once ({@link ShutdownState}) and answers carry
 * `Connection: close`, while the listener keeps accepting for `graceMs`, long enough for a load
 * balancer that polls readiness to move traffic away. Then Nest shuts down (sync stops between
 * pages, the HTTP server stops accepting and waits for the requests in flight, the database and
 * Redis close) and the process exits 0; if that takes more than `hardTimeoutMs`, it exits 1.
 */
export function enableGracefulShutdown(
  app: INestApplication,
  graceMs: number,
  hardTimeoutMs: number = HARD_SHUTDOWN_TIMEOUT_MS,
): void {
  const logger = new Logger('Shutdown');
  const state = app.get(ShutdownState);
  const server = app.getHttpServer() as Server;
  const silentSockets = socketsThatNeverSentARequest(server);
  const shutDown = async (signal: string): Promise<void> => {
    state.begin(signal);
    await new Promise((resolve) => setTimeout(resolve, graceMs));
    setTimeout(() => {
      logger.error({ msg: 'graceful shutdown took too long; exiting', signal, hardTimeoutMs });
      process.exit(1);
    }, hardTimeoutMs).unref();
    // A closed server still waits for its keep-alive connections; each is dropped once its
    // request in flight is answered instead of after the keep-alive timeout. Node does not count
    // a connection that never sent a request as idle (a preconnect, a TCP health check), and would
    // wait for it until the hard timeout: those are dropped too.
    setInterval(() => {
      if (server.listening) return;
      server.closeIdleConnections();
      for (const socket of silentSockets) socket.destroy();
    }, IDLE_CONNECTION_SWEEP_MS).unref();
    await app.close();
    process.exit(0);
  };
  for (const signal of SIGNALS) {
    process.once(signal, () => {
      shutDown(signal).catch((error: unknown) => {
        logger.error({ msg: 'shutdown failed', err: error });
        process.exit(1);
      });
    });
  }
}

/** The server's open connections that have not sent a request yet, kept current. */
function socketsThatNeverSentARequest(server: Server): Set<Socket> {
  const silent = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    silent.add(socket);
    socket.once('close', () => silent.delete(socket));
  });
  server.on('request', (request: IncomingMessage) => silent.delete(request.socket));
  return silent;
}
