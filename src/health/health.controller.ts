import { Controller, Get, Header, Logger, ServiceUnavailableException } from '@nestjs/common';
import {
  ApiExtraModels,
  ApiOkResponse,
  ApiOperation,
  ApiResponse,
  ApiTags,
  getSchemaPath,
} from '@nestjs/swagger';
import { HealthCheckService, type HealthCheckResult } from '@nestjs/terminus';
import { Public } from '../common/http/public.decorator.js';
import { ProblemException } from '../common/problems/problem.exception.js';
import {
  HealthIndicatorDto,
  LastSyncDto,
  LivenessResponseDto,
  NotReadyProblemDto,
  ReadinessResponseDto,
  NOT_READY_EXAMPLE,
  NOT_READY_PROBLEM,
} from './dto/health.response.dto.js';
import { ReadinessIndicators } from './readiness.indicators.js';

/** Seconds a client (or balancer) should wait before asking again. */
const NOT_READY_RETRY_AFTER_S = '5';
const NO_STORE = 'no-store';

@ApiTags('operational')
@ApiExtraModels(HealthIndicatorDto, LastSyncDto, ReadinessResponseDto, NotReadyProblemDto)
@Public()
@Controller('health')
export class HealthController {
  private readonly logger = new Logger(HealthController.name);
  private lastReady: boolean | null = null;

  constructor(
    private readonly health: HealthCheckService,
    private readonly indicators: ReadinessIndicators,
  ) {}

  @Get('live')
  @Header('Cache-Control', NO_STORE)
  @ApiOperation({
    operationId: 'getLiveness',
    summary: 'Liveness',
    description: '200 while the process runs and serves HTTP, shutting down included. No authentication.',
  })
  @ApiOkResponse({ type: LivenessResponseDto })
  live(): LivenessResponseDto {
    return { status: 'ok' };
  }

  @Get('ready')
  @Header('Cache-Control', NO_STORE)
  @ApiOperation({
    operationId: 'getReadiness',
    summary: 'Readiness',
    description:
      '200 when the database answers (within 2 s), the initial data is there (demo mode: after the first sync) ' +
      'and the service is not shutting down; otherwise 503 `application/problem+json` of type `/problems/not-ready` ' +
      'whose `checks` member holds the report. The operations system (circuit state, last sync) and Redis are ' +
      'reported, as `degraded` at worst: their outages never make the service unready. No authentication.',
  })
  @ApiOkResponse({ type: ReadinessResponseDto, description: 'Ready (`status` `ok`, or `degraded`)' })
  @ApiResponse({
    status: 503,
    description: '`/problems/not-ready`: a check is down, or the service is shutting down',
    headers: {
      'Retry-After': {
        description: 'Seconds to wait',
        required: true,
        schema: { type: 'string', pattern: '^[0-9]{1,9}$' },
      },
    },
    content: {
      'application/problem+json': {
        schema: { $ref: getSchemaPath(NotReadyProblemDto) },
        example: NOT_READY_EXAMPLE,
      },
    },
  })
  async ready(): Promise<HealthCheckResult> {
    const { indicators } = this;
    try {
      const result = await this.health.check([
        () => indicators.databaseAnswers(),
        () => indicators.initialDataReady(),
        () => indicators.notShuttingDown(),
        () => indicators.operations(),
        () => indicators.redisConnection(),
      ]);
      this.noteReadiness(true, result);
      return result;
    } catch (error) {
      if (!(error instanceof ServiceUnavailableException)) throw error;
      const checks = error.getResponse() as HealthCheckResult;
      this.noteReadiness(false, checks);
      throw new ProblemException(NOT_READY_PROBLEM, {
        detail: describeFailures(checks),
        headers: { 'Retry-After': NOT_READY_RETRY_AFTER_S, 'Cache-Control': NO_STORE },
        extensions: { checks },
      });
    }
  }

  /** Logs changes only: probes ask every few seconds. */
  private noteReadiness(ready: boolean, result: HealthCheckResult): void {
    if (ready === this.lastReady) return;
    this.lastReady = ready;
    if (ready) this.logger.log({ msg: 'ready', status: result.status });
    else this.logger.warn({ msg: 'not ready', status: result.status, down: Object.keys(result.error ?? {}) });
  }
}

function describeFailures(checks: HealthCheckResult): string {
  const down = Object.entries(checks.error ?? {}).map(([name, value]) =>
    typeof value?.message === 'string' ? `${name}: ${value.message}` : name,
  );
  if (down.length === 0) return 'The service is shutting down';
  return `Not ready: ${down.join('; ')}`;
}
