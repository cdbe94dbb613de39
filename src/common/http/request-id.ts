import { randomUUID } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';

const SANE_REQUEST_ID = /^[A-Za-z0-9._-]{1,128}$/;
const REQUEST_ID = Symbol('requestId');

type RequestWithId = Request & { [REQUEST_ID]?: string };

/** Keeps the client's `X-Request-Id` when it is sane, makes a new one otherwise. */
export function requestIdMiddleware(request: Request, response: Response, next: NextFunction): void {
  const offered = request.headers['x-request-id'];
  const requestId = typeof offered === 'string' && SANE_REQUEST_ID.test(offered) ? offered : randomUUID();
  (request as RequestWithId)[REQUEST_ID] = requestId;
  response.setHeader('X-Request-Id', requestId);
  next();
}

export function requestIdOf(request: Request): string {
  return (request as RequestWithId)[REQUEST_ID] ?? 'unknown';
}
