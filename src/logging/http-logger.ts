import type { IncomingMessage, ServerResponse } from 'node:http';
import { Inject, Injectable } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { pinoHttp } from 'pino-http';
// Upward on purpose: a request line names the user the JWT guard resolved, when there is one.
import type { AuthenticatedUser } from '../auth/authenticated-user.js';
import { requestIdOf } from '../common/http/request-id.js';
import { routePatternOf } from '../common/http/route-pattern.js';
import { LOG_SERIALIZERS } from './log-serializers.js';
import { runWithRequestId } from './request-context.js';
import { ROOT_LOGGER, type RootLogger } from './root-logger.js';

/** Probes hit these every few seconds: their lines stay at debug. */
const PROBE_PATHS = /^\/(health|metrics)(\/|$)/;

/**
 * One line per request when its answer is sent: request id, method, URL (credential-looking
 * query values censored), route pattern, status, duration in ms, and the user id when
 * authenticated. Logs made while a request is handled carry its `requestId` too.
 */
@Injectable()
export class HttpLogger {
  readonly middleware: (request: Request, response: Response, next: NextFunction) => void;

  constructor(@Inject(ROOT_LOGGER) root: RootLogger) {
    const logRequest = pinoHttp<IncomingMessage, ServerResponse>({
      logger: root,
      // The id requestIdMiddleware chose (and sent back as X-Request-Id): one id per request.
      genReqId: (request) => requestIdOf(request as Request),
      customAttributeKeys: { reqId: 'requestId', responseTime: 'durationMs' },
      quietReqLogger: true,
      wrapSerializers: false,
      serializers: LOG_SERIALIZERS,
      customLogLevel: (request, response, error) => {
        if (PROBE_PATHS.test((request as Request).path)) return 'debug';
        return error !== undefined || response.statusCode >= 500 ? 'error' : 'info';
      },
      customSuccessObject: (request, _response, value: object) => ({ ...value, ...context(request) }),
      customErrorObject: (request, _response, _error, value: object) => ({ ...value, ...context(request) }),
    });
    this.middleware = (request, response, next) =>
      logRequest(request, response, () => runWithRequestId(requestIdOf(request), next));
  }
}

function context(request: IncomingMessage): Record<string, string> {
  const express = request as Request & { user?: AuthenticatedUser };
  const userId = express.user?.id;
  return { route: routePatternOf(express), ...(userId !== undefined && { userId }) };
}
