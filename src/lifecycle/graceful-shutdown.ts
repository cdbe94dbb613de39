import type { Server } from 'node:http';
import { Logger, type INestApplication } from '@nestjs/common';
import { ShutdownState } from './shutdown.state.js';

/** A stuck hook or connection must not keep a terminated instance around. */
export const HARD_SHUTDOWN_TIMEOUT_MS = 10_000;
const IDLE_CONNECTION_SWEEP_MS = 100;

const SIGNALS = ['SIGTERM', 'SIGINT'] as const;

/**
 * On SIGTERM or SIGINT: readiness turns 503 at once ({@link ShutdownState}); Nest then runs its
 * shutdown (sync stops between pages, the HTTP server stops accepting connections and waits for
 * the requests in flight, the database and Redis close) and the process exits 0. A timer that
 * does not hold the process open exits 1 if all that takes longer than `hardTimeoutMs`.
 */
export function enableGracefulShutdown(
  app: INestApplication,
  hardTimeoutMs: number = HARD_SHUTDOWN_TIMEOUT_MS,
): void {
  const logger = new Logger('Shutdown');
  const state = app.get(ShutdownState);
  const server = app.getHttpServer() as Server;
  for (const signal of SIGNALS) {
    // Registered before Nest's own listener, so this runs first.
    process.once(signal, () => {
      state.begin(signal);
      setTimeout(() => {
        logger.error({ msg: 'graceful shutdown took too long; exiting', signal, hardTimeoutMs });
        process.exit(1);
      }, hardTimeoutMs).unref();
      // A closed server still waits for its keep-alive connections; each is dropped once its
      // request in flight is answered instead of after the keep-alive timeout.
      setInterval(() => {
        if (!server.listening) server.closeIdleConnections();
      }, IDLE_CONNECTION_SWEEP_MS).unref();
    });
  }
  // useProcessExit: exit 0 once closed (instead of re-raising the signal), which also lets pino flush.
  app.enableShutdownHooks([...SIGNALS], { useProcessExit: true });
}
