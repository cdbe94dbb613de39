import { AsyncResource } from 'node:async_hooks';
import { Inject, Injectable } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import type { AuthenticatedUser } from '../domain/authenticated-user.js';
import { requestIdOf } from '../common/http/request-id.js';
import { routePatternOf } from '../common/http/route-pattern.js';
import { ROOT_LOGGER, type RootLogger } from './root-logger.js';

/** Probes hit these every few seconds: their lines stay at debug. */
const PROBE_PATHS = /^\/(health|metrics)(\/|$)/;

/**
 * One line per request when its answer is sent (or the client goes first): request id, method,
 * URL (credential-looking query values censored), route pattern, status, duration in ms, and the
 * user id when authenticated. The lines about a request's failure carry its `requestId` too,
 * written there explicitly (see `ProblemDetailsFilter`).
 *
 * Not through an `AsyncLocalStorage`: on Node 20 it turns on promise hooks for every promise the
 * process makes, which cost 0.7 ms of a list request's 3.5 ms of CPU (docs/performance.md).
 *
 * Written here rather than with pino-http, which binds two child loggers to every request,
 * serialising and redacting the request up front even when its line is below the log level: a
 * fifth of the CPU an authenticated request costs. The root logger's serializers and redaction
 * still shape the line, when there is one.
 */
@Injectable()
export class HttpLogger {
  constructor(@Inject(ROOT_LOGGER) private readonly root: RootLogger) {}

  readonly middleware = (request: Request, response: Response, next: NextFunction): void => {
    const startedAt = Date.now();
    const requestId = requestIdOf(request);
    // A response closes once, whether it finished or its connection dropped first. The line is
    // written in the request's async context: that is where its trace_id and span_id come from
    // when traced. (Not `AsyncResource.bind`: on Node 20 it makes two deprecation wrappers a call,
    // measured at 2% of a list request's CPU.)
    const requestContext = new AsyncResource('HttpLogLine');
    response.once('close', () =>
      requestContext.runInAsyncScope(() =>
        this.logCompleted(request, response, requestId, Date.now() - startedAt),
      ),
    );
    next();
  };

  private logCompleted(request: Request, response: Response, requestId: string, durationMs: number): void {
    const failed = response.statusCode >= 500;
    const level = PROBE_PATHS.test(request.path) ? 'debug' : failed ? 'error' : 'info';
    if (!this.root.isLevelEnabled(level)) return;
    const user = (request as Request & { user?: AuthenticatedUser }).user;
    this.root[level](
      {
        requestId,
        req: request,
        res: response,
        ...(failed && { err: new Error(`failed with status code ${response.statusCode}`) }),
        durationMs,
        route: routePatternOf(request),
        ...(user !== undefined && { userId: user.id }),
      },
      failed ? 'request errored' : response.writableEnded ? 'request completed' : 'request aborted',
    );
  }
}
