import type { NextFunction, Request, Response } from 'express';
import { InvalidRequestException } from '../problems/problem.exception.js';

/** The query string is at most 4 KiB. */
export const MAX_QUERY_STRING_BYTES = 4096;

export function queryStringLimit(request: Request, _response: Response, next: NextFunction): void {
  const start = request.url.indexOf('?');
  const length = start === -1 ? 0 : Buffer.byteLength(request.url) - start - 1;
  if (length <= MAX_QUERY_STRING_BYTES) return next();
  next(
    new InvalidRequestException([
      { in: 'query', name: 'query', message: `must be at most ${MAX_QUERY_STRING_BYTES} bytes` },
    ]),
  );
}
