import type { Logger } from '@nestjs/common';

/** What the watchdog needs of a `pg` client: its statements, its idle signal and its socket. */
export interface WatchedClient {
  query: (...args: never[]) => unknown;
  on(event: 'drain' | 'end', listener: () => void): unknown;
  readonly connection: { readonly stream: { destroy(): void } };
}

/**
 * Gives up on a connection that has waited `limitMs` for PostgreSQL's answer (a server that stops
 * answering without closing the socket): its socket is destroyed, so the statement fails as a lost
 * connection, which the service answers with a 503, and the pool opens another.
 *
 * A connection is busy from the statement it is given while idle until it is idle again (`pg`
 * emits `drain`), so the limit bounds each statement of a transaction, awaited one after another.
 *
 * In place of `pg`'s `query_timeout`, which arms a timer for every statement; that timer's closure
 * holds the statement, and on 100-item pages it kept their rows alive into the old generation
 * (docs/performance.md). One timer a connection instead, re-armed when it turns busy.
 */
export function watchForSilence(client: WatchedClient, limitMs: number, logger: Logger): void {
  let busySince: number | null = null;
  let remainder: NodeJS.Timeout | undefined;
  const check = (): void => {
    if (busySince === null) return;
    const waitedMs = performance.now() - busySince;
    // Fired early (timers keep a coarser clock, and drift under load): wait out the rest only, on a
    // timer of its own, as refreshing this one would wait the whole limit again.
    if (waitedMs < limitMs) {
      remainder = setTimeout(check, Math.ceil(limitMs - waitedMs)).unref();
      return;
    }
    busySince = null;
    logger.warn(`PostgreSQL has not answered for ${Math.round(waitedMs)} ms: dropping the connection`);
    client.connection.stream.destroy();
  };
  const timer = setTimeout(check, limitMs).unref();
  client.on('drain', () => {
    busySince = null;
  });
  client.on('end', () => {
    clearTimeout(timer);
    clearTimeout(remainder);
  });

  const send = client.query.bind(client) as (...args: unknown[]) => unknown;
  client.query = (...args: unknown[]): unknown => {
    if (busySince === null) {
      busySince = performance.now();
      timer.refresh();
    }
    return send(...args);
  };
}
