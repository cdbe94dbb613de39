import {
  context,
  propagation,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  type Tracer,
} from '@opentelemetry/api';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { routePatternOf, UNMATCHED_ROUTE } from '../common/http/route-pattern.js';

/**
 * The request's span, as the first middleware: continued from an incoming `traceparent`, named by
 * the route that served it (`GET /api/processes/:numero`), with the stable HTTP attributes, and
 * current for everything the request does (statements, Redis, calls upstream, its log line).
 *
 * The HTTP instrumentation's server side would do the same from the `request` event, but it also
 * binds every listener of the request and the response to the context: measured, it cost as much
 * CPU as all the spans of a list request.
 */
export function serverSpanMiddleware(tracer: Tracer = trace.getTracer('process-lookup')): RequestHandler {
  return (request: Request, response: Response, next: NextFunction) => {
    const parent = propagation.extract(ROOT_CONTEXT, request.headers);
    const span = tracer.startSpan(
      request.method,
      {
        kind: SpanKind.SERVER,
        attributes: {
          'http.request.method': request.method,
          'url.scheme': request.protocol,
          'url.path': request.path,
          'server.address': request.hostname,
          'network.protocol.version': request.httpVersion,
          'client.address': request.ip,
          'user_agent.original': request.headers['user-agent'],
        },
      },
      parent,
    );
    // 'close' comes after the last byte, or instead of it when the client goes away first.
    response.once('close', () => {
      const route = routePatternOf(request);
      if (route !== UNMATCHED_ROUTE) {
        span.setAttribute('http.route', route);
        span.updateName(`${request.method} ${route}`);
      }
      span.setAttribute('http.response.status_code', response.statusCode);
      if (response.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
    });
    context.with(trace.setSpan(parent, span), next);
  };
}
