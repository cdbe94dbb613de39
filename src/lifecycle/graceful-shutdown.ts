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
 * After the grace period every request is refused (503, `Connection: close`), but its answer is
 * held until the listener has closed, and the listener closes once no connection has been accepted
 * and no answer sent for this long. Closing it resets every connection still waiting in the
 * kernel's accept queue (or in its handshake); the clients that connect at that moment are those
 * just answered, so with every answer held they all wait on connections already accepted, and
 * those that connect again after their 503 find nobody listening: refused, not reset.
 */
export const LISTENER_QUIET_MS = 50;
/** Clients that never stop connecting (not only those answered here) keep answers held this long at most. */
export const HELD_REFUSALS_CAP_MS = 1000;
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
 * be closed under it. Past the grace period every request is refused with a 503 that says so, once
 * the state lets refusals be answered.
 */
export function closeConnectionsWhileDraining(state: ShutdownState) {
  return (_request: Request, response: Response, next: NextFunction): void => {
    if (!state.isShuttingDown) return next();
    response.setHeader('Connection', 'close');
    const refusalsAnswered = state.refusalsAnsweredWhen;
    if (refusalsAnswered === null) return next();
    void refusalsAnswered.then(() =>
      next(
        new ProblemException(PROBLEM_TYPES.serviceUnavailable, {
          detail: 'The service is shutting down: send the request again, to another instance',
          headers: { 'Retry-After': '1' },
        }),
      ),
    );
  };
}

/**
 * On SIGTERM or SIGINT: readiness turns 503 at once ({@link ShutdownState}) and answers carry
 * `Connection: close`, while the listener keeps accepting for `graceMs`, long enough for a load
 * balancer that polls readiness to move traffic away. Then requests are refused, each 503 held
 * until the listener closes ({@link LISTENER_QUIET_MS} after the last connection or answer), and
 * Nest shuts down (sync stops between pages, the HTTP server waits for the requests in flight, the
 * database and Redis close), the exit hooks run (buffered spans exported) and the process exits 0;
 * if that takes more than `hardTimeoutMs` after the grace period, it exits 1.
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
    let answerRefusals = (): void => undefined;
    state.refuseRequests(new Promise<void>((resolve) => (answerRefusals = resolve)));
    await untilQuiet(connections.lastConnectionOrAnswerAt);
    // Closing, Node also drops every connection with no request under way, one accepted a moment
    // ago included, whose request (on its way) would meet a reset: only those answered and silent
    // since are dropped; a fresh one is given time to send its request, refused like the others.
    server.closeIdleConnections = () => {
      for (const socket of connections.answeredAndIdle) socket.destroy();
    };
    // Nest's close (below) closes it again, and finds it closed.
    server.close();
    answerRefusals();
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
 * Resolves once no connection has been accepted and no answer sent for {@link LISTENER_QUIET_MS},
 * or after {@link HELD_REFUSALS_CAP_MS}. Each check comes after the event loop has polled once more,
 * so a connection the kernel queued while the process was not running (a busy loop, a loaded
 * machine) is accepted, and counted, before the quiet is believed.
 */
async function untilQuiet(lastConnectionOrAnswerAt: () => number): Promise<void> {
  const startedAt = performance.now();
  const deadline = startedAt + HELD_REFUSALS_CAP_MS;
  const lastActivity = () => Math.max(startedAt, lastConnectionOrAnswerAt());
  for (;;) {
    const now = performance.now();
    const quietIn = lastActivity() + LISTENER_QUIET_MS - now;
    if (quietIn <= 0 || now >= deadline) return;
    await sleep(Math.min(quietIn, deadline - now));
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/**
 * The server's open connections that have not sent a request yet (with when each was accepted),
 * those whose last request has been answered with nothing sent since, and when a connection was
 * last accepted or an answer last sent (the moments after which a client may connect).
 */
function trackConnections(server: Server) {
  const neverSentARequest = new Map<Socket, number>();
  const answeredAndIdle = new Set<Socket>();
  let lastConnectionOrAnswer = 0;
  server.on('connection', (socket: Socket) => {
    lastConnectionOrAnswer = performance.now();
    neverSentARequest.set(socket, lastConnectionOrAnswer);
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
      lastConnectionOrAnswer = performance.now();
      if (!socket.destroyed) answeredAndIdle.add(socket);
    });
  });
  return { neverSentARequest, answeredAndIdle, lastConnectionOrAnswerAt: () => lastConnectionOrAnswer };
}
