import type { NextFunction, Request, Response } from 'express';
import { InvalidRequestException } from '../problems/problem.exception.js';

/**
 * The deepest JSON body accepted. The API's bodies are flat objects; what the validation pipe
 * transforms recursively must not be deep enough to overflow the stack (an array 3,000 deep did).
 */
export const MAX_BODY_DEPTH = 8;

/** Refuses a parsed body nested deeper than {@link MAX_BODY_DEPTH}, walking it without recursion. */
export function bodyDepthLimit(request: Request, _response: Response, next: NextFunction): void {
  if (depthExceeds(request.body, MAX_BODY_DEPTH)) {
    next(
      new InvalidRequestException([
        { in: 'body', name: 'body', message: `must not be nested more than ${MAX_BODY_DEPTH} levels deep` },
      ]),
    );
    return;
  }
  next();
}

function depthExceeds(value: unknown, limit: number): boolean {
  const pending: Array<[unknown, number]> = [[value, 0]];
  while (pending.length > 0) {
    const [current, depth] = pending.pop()!;
    if (typeof current !== 'object' || current === null) continue;
    if (depth >= limit) return true;
    for (const child of Object.values(current)) pending.push([child, depth + 1]);
  }
  return false;
}
