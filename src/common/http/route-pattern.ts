import type { Request } from 'express';

/** The label of a request no route matched (404, 405, CORS preflight, refused by a parser). */
export const UNMATCHED_ROUTE = '<unmatched>';

/**
 * The route pattern that served a request (`/api/processes/:numero`), never the raw URL, so logs
 * and metrics group by route and a client cannot create a label per URL. Known once routing ran.
 */
export function routePatternOf(request: Request): string {
  const route = (request as { route?: { path?: unknown } }).route;
  return typeof route?.path === 'string' ? `${request.baseUrl}${route.path}` : UNMATCHED_ROUTE;
}
