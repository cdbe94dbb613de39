import { Injectable } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { Counter, Histogram, Registry } from 'prom-client';
import type { ClientErrorCounter } from '../common/http/http-server-settings.js';
import { routePatternOf } from '../common/http/route-pattern.js';

const KNOWN_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/**
 * `http_request_duration_seconds` by method, route pattern and status, for every answer sent
 * (unmatched routes under one fixed label). Mounted first by `configureApp`, so that answers
 * given by middleware (413, 414, CORS preflights) count too. Aborted requests are not counted.
 */
@Injectable()
export class HttpMetrics implements ClientErrorCounter {
  private readonly duration: Histogram<'method' | 'route' | 'status'>;
  private readonly parserRefusals: Counter<'status'>;

  constructor(registry: Registry) {
    this.parserRefusals = new Counter({
      name: 'http_parser_refusals_total',
      help: "Requests Node's HTTP parser refused before routing (malformed, oversized headers, too slow, Expect, CONNECT), by status",
      labelNames: ['status'],
      registers: [registry],
    });
    this.duration = new Histogram({
      name: 'http_request_duration_seconds',
      help: 'Time to answer an HTTP request, by method, route pattern and status',
      labelNames: ['method', 'route', 'status'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [registry],
    });
  }

  clientErrorAnswered(status: number): void {
    this.parserRefusals.inc({ status: String(status) });
  }

  readonly middleware = (request: Request, response: Response, next: NextFunction): void => {
    const started = process.hrtime.bigint();
    response.once('finish', () => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      this.duration.observe(
        {
          method: KNOWN_METHODS.has(request.method) ? request.method : 'OTHER',
          route: routePatternOf(request),
          status: String(response.statusCode),
        },
        seconds,
      );
    });
    next();
  };
}
