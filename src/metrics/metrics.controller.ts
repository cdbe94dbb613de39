import { Controller, Get, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { Registry } from 'prom-client';
import { Public } from '../common/http/public.decorator.js';

@ApiTags('operational')
@Public()
@Controller('metrics')
export class MetricsController {
  constructor(private readonly registry: Registry) {}

  @Get()
  @ApiOperation({
    operationId: 'getMetrics',
    summary: 'Prometheus metrics',
    description:
      'Prometheus text format (0.0.4), no authentication: keep it off the public ingress. ' +
      '`http_request_duration_seconds{method,route,status}` (route patterns, `<unmatched>` for no route), ' +
      '`operations_upstream_calls_total{operation,outcome,failure}`, `operations_upstream_call_duration_seconds`, ' +
      '`operations_circuit_state` (0 closed, 1 half-open, 2 open, 3 isolated; HTTP adapter only), ' +
      '`enrichment_cache_hits_total`, `enrichment_cache_misses_total`, `enrichment_cache_stale_served_total`, ' +
      '`sync_runs_total{status}`, `sync_run_duration_seconds`, `sync_lag_seconds`, ' +
      '`sync_last_success_timestamp_seconds`, `rate_limit_rejections_total{limiter}`, and the default process ' +
      'metrics (CPU, memory, event loop lag).',
  })
  @ApiProduces('text/plain')
  @ApiOkResponse({
    description: 'The metrics',
    content: { 'text/plain; version=0.0.4': { schema: { type: 'string' } } },
  })
  async metrics(@Res({ passthrough: true }) response: Response): Promise<string> {
    response.setHeader('Content-Type', this.registry.contentType);
    response.setHeader('Cache-Control', 'no-store');
    return this.registry.metrics();
  }
}
