import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { Logger, type INestApplication } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { ProblemException } from '../common/problems/problem.exception.js';
import { PROBLEM_TYPES } from '../common/problems/problem-types.js';
import { runExitHooks } from './exit-hooks.js';
import { ShutdownState } from './shutdown.state.js';

/** After the grace period: a stuck hook or connection must not keep a terminated instance around. */
export const HARD_SHUTDOWN_TIMEOUT_MS = 10_000;
/**
 * After the grace period, how long every request is refused (503, `Connection: close`) before the
 * listener closes: clients still sending here leave on their refusal instead of connecting at the
 * moment it closes, when the kernel resets every connection waiting in its accept queue.
 */
export const REFUSAL_PERIOD_MS = 500;
/**
 * Then the kernel's queue of accepted connections is cut to nothing, and drained for this long
 * before the listener closes (just after the event loop has taken what was queued): closing
 * resets every connection still in it, whose clients (those that reconnect at once after their
 * 503) would see their request reset. Meanwhile the kernel leaves new connection attempts
 * unanswered; the client tries again, and finds nobody listening.
 */
export const ACCEPT_QUEUE_DRAIN_MS = 200;
const IDLE_CONNECTION_SWEEP_MS = 100;
/**
 * A connection that has sent nothing for this long is a preconnect or a TCP health check, dropped
 * once the listener is closed; a younger one may be a client whose request is on its way.
 */
const SILENT_CONNECTION_MS = 1000;

const SIGNALS = ['SIGTERM', 'SIGINT'] as const;

/**
 * While the service drains, every answer asks the client to close its connection, so that a
 * keep-alive client opens a new one (to another instance) instead of reusing one that is about to
 * be closed under it. Past the grace period every request is refused with a 503 that says so.
 */
export function closeConnectionsWhileDraining(state: ShutdownState) {
  return (_request: Request, response: Response, next: NextFunction): void => {
    if (!state.isShuttingDown) return next();
    response.setHeader('Connection', 'close');
    if (!state.isRefusingRequests) return next();
    next(
      new ProblemException(PROBLEM_TYPES.serviceUnavailable, {
        detail: 'The service is shutting down: send the request again, to another instance',
        headers: { 'Retry-After': '1' },
      }),
    );
  };
}

/**
 * On SIGTERM or SIGINT: readiness turns 503 at once ({@link ShutdownState}) and answers carry
 * `Connection: close`, while the listener keeps accepting for `graceMs`, long enough for a load
 * balancer that polls readiness to move traffic away. Then requests are refused for
 * {@link REFUSAL_PERIOD_MS}, and Nest shuts down (sync stops between pages, the HTTP server stops
 * accepting and waits for the requests in flight, the database and Redis close), the exit hooks
 * run (buffered spans exported) and the process exits 0; if that takes more than `hardTimeoutMs` after the grace period, it exits 1.
 */
export function enableGracefulShutdown(
  app: INestApplication,
  graceMs: number,
  hardTimeoutMs: number = HARD_SHUTDOWN_TIMEOUT_MS,
): void {
  const logger = new Logger('Shutdown');
  const state = app.get(ShutdownState);
  const server = app.getHttpServer() as Server;
  const connections = trackConnections(server);
  const shutDown = async (signal: string): Promise<void> => {
    state.begin(signal);
    await sleep(graceMs);
    setTimeout(() => {
      logger.error({ msg: 'graceful shutdown took too long; exiting', signal, hardTimeoutMs });
      process.exit(1);
    }, hardTimeoutMs).unref();
    state.refuseRequests();
    await sleep(REFUSAL_PERIOD_MS);
    stopQueueingConnections(server);
    await sleep(ACCEPT_QUEUE_DRAIN_MS);
    // Closing, Node also drops every connection with no request under way, one accepted a moment
    // ago included, whose request (on its way) would meet a reset: only those answered and silent
    // since are dropped; a fresh one is given time to send its request, refused like the others.
    server.closeIdleConnections = () => {
      for (const socket of connections.answeredAndIdle) socket.destroy();
    };
    // Nest's close (below) closes it again, and finds it closed.
    await new Promise<void>((resolve) =>
      setImmediate(() => {
        server.close();
        resolve();
      }),
    );
    // A closed server still waits for its keep-alive connections; each is dropped once its
    // request in flight is answered instead of after the keep-alive timeout. Node does not count
    // a connection that never sent a request as idle (a preconnect, a TCP health check), and would
    // wait for it until the hard timeout: those are dropped too, once silent for long enough.
    setInterval(() => {
      if (server.listening) return;
      server.closeIdleConnections();
      const silentSince = performance.now() - SILENT_CONNECTION_MS;
      for (const [socket, connectedAt] of connections.neverSentARequest) {
        if (connectedAt <= silentSince) socket.destroy();
      }
    }, IDLE_CONNECTION_SWEEP_MS).unref();
    await app.close();
    await runExitHooks();
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

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Listens again with a backlog of 0: Linux then queues no more accepted connections (it drops new
 * handshakes while one waits). Node offers no public way to change a listener's backlog; its
 * handle's `listen` is the call `server.listen` makes, and calling it again only sets the backlog.
 */
function stopQueueingConnections(server: Server): void {
  const handle = (server as unknown as { _handle?: { listen?: (backlog: number) => number } | null })._handle;
  handle?.listen?.(0);
}

/**
 * The server's open connections that have not sent a request yet (with when each was accepted),
 * and those whose last request has been answered with nothing sent since.
 */
function trackConnections(server: Server) {
  const neverSentARequest = new Map<Socket, number>();
  const answeredAndIdle = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    neverSentARequest.set(socket, performance.now());
    socket.once('close', () => {
      neverSentARequest.delete(socket);
      answeredAndIdle.delete(socket);
    });
  });
  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    const socket = request.socket;
    neverSentARequest.delete(socket);
    answeredAndIdle.delete(socket);
    response.once('finish', () => {
      if (!socket.destroyed) answeredAndIdle.add(socket);
    });
  });
  return { neverSentARequest, answeredAndIdle };
}
