import {
  ArgumentsHost,
  Catch,
  ExceptionFilter,
  HttpException,
  Logger,
  NotFoundException,
} from '@nestjs/common';
import type { Request, Response } from 'express';
import { RouteTable } from '../http/route-table.js';
import { requestIdOf } from '../http/request-id.js';
import { OutageClassifier } from './outage-classifier.js';
import { ProblemException, InvalidRequestException } from './problem.exception.js';
import { PROBLEM_TYPES, type ProblemDocument, type ProblemType } from './problem-types.js';

/** A bare 403 (a guard answering false) is no missing scope: it stays a 500 that is logged. */
const PROBLEM_BY_STATUS = new Map<number, ProblemType>(
  Object.values(PROBLEM_TYPES)
    .filter((problem) => problem !== PROBLEM_TYPES.insufficientScope)
    .map((problem) => [problem.status, problem]),
);

/** What body-parser and other Express middleware throw: a plain error with an HTTP status. */
interface HttpStatusError {
  status?: unknown;
  statusCode?: unknown;
  type?: unknown;
}

/**
 * Shapes every error answer as RFC 9457 problem+json. An outage (as the {@link OutageClassifier}
 * recognises it) is a 503 with `Retry-After`; other unknown errors become a bare 500 that reveals
 * nothing, and the real error is logged with the request id.
 */
@Catch()
export class ProblemDetailsFilter implements ExceptionFilter {
  private readonly logger = new Logger(ProblemDetailsFilter.name);

  constructor(
    private readonly routes: RouteTable,
    private readonly outages: OutageClassifier,
  ) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const request = http.getRequest<Request>();
    const response = http.getResponse<Response>();
    const problem = this.toProblem(exception, request);

    const body: ProblemDocument = {
      type: problem.problem.type,
      title: problem.problem.title,
      status: problem.problem.status,
      ...(problem.problemOptions.detail !== undefined && { detail: problem.problemOptions.detail }),
      instance: request.originalUrl,
      requestId: requestIdOf(request),
      ...(problem instanceof InvalidRequestException && { errors: problem.errors }),
      ...problem.problemOptions.extensions,
    };
    if (body.type === PROBLEM_TYPES.internal.type) {
      this.logger.error(
        { requestId: body.requestId, err: exception },
        `${request.method} ${request.path} failed with ${body.status}`,
      );
    } else if (body.status >= 500) {
      // An expected outage (operations system down, not ready yet): no stack, one line.
      this.logger.warn({ requestId: body.requestId }, `${request.method} ${request.path}: ${body.title}`);
    }
    if (response.headersSent) return;
    response.status(body.status);
    for (const [name, value] of Object.entries(problem.problemOptions.headers ?? {})) {
      response.setHeader(name, value);
    }
    response
      .type(problem.problemOptions.contentType ?? 'application/problem+json')
      .send(JSON.stringify(body));
  }

  private toProblem(exception: unknown, request: Request): ProblemException {
    if (exception instanceof ProblemException) return exception;
    if (exception instanceof NotFoundException) return this.unmatchedRoute(request);
    if (exception instanceof HttpException) {
      return this.fromStatus(exception.getStatus(), exception, describeMiddlewareError(exception.cause));
    }
    const { status, statusCode } = (exception ?? {}) as HttpStatusError;
    const httpStatus = typeof status === 'number' ? status : statusCode;
    if (typeof httpStatus === 'number' && httpStatus >= 400 && httpStatus < 500) {
      return this.fromStatus(httpStatus, exception, describeMiddlewareError(exception));
    }
    const outage = this.outages.classify(exception);
    if (outage !== null) {
      return new ProblemException(PROBLEM_TYPES.serviceUnavailable, {
        cause: exception,
        detail: outage.detail,
        headers: { 'Retry-After': String(outage.retryAfterSeconds) },
      });
    }
    return new ProblemException(PROBLEM_TYPES.internal, { cause: exception });
  }

  /** Nest's router found nothing: another method on a known path is a 405, anything else a 404. */
  private unmatchedRoute(request: Request): ProblemException {
    const allowed = this.routes.allowedMethods(request.path);
    if (allowed.length === 0) {
      return new ProblemException(PROBLEM_TYPES.notFound, {
        detail: `No route matches ${request.method} ${request.path}`,
      });
    }
    return new ProblemException(PROBLEM_TYPES.methodNotAllowed, {
      detail: `${request.method} is not allowed on ${request.path}; allowed: ${allowed.join(', ')}`,
      headers: { Allow: allowed.join(', ') },
    });
  }

  private fromStatus(status: number, cause: unknown, detail?: string): ProblemException {
    const problem = PROBLEM_BY_STATUS.get(status);
    if (problem === undefined) {
      return new ProblemException(PROBLEM_TYPES.internal, { cause });
    }
    return new ProblemException(problem, { cause, ...(detail !== undefined && { detail }) });
  }
}

/** A client-safe sentence for body-parser's failures; never the parser's own message. */
function describeMiddlewareError(error: unknown): string | undefined {
  switch ((error as HttpStatusError | undefined)?.type) {
    case 'entity.parse.failed':
      return 'The request body is not valid JSON';
    case 'entity.too.large':
      return 'The request body exceeds 16 KiB';
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return 'The request body must be UTF-8 encoded JSON';
    default:
      return undefined;
  }
}
