import { ApiProperty, ApiPropertyOptional, getSchemaPath } from '@nestjs/swagger';
import { nullableRef } from '../../common/openapi/nullable-ref.js';
import { ProblemResponseDto } from '../../common/openapi/problem.response.dto.js';
import type { OperationsCircuitState } from '../../operations/resilience/operations-resilience.js';
import type { SyncRunStatus } from '../../sync/sync.types.js';

export class LivenessResponseDto {
  @ApiProperty({ enum: ['ok'], example: 'ok' })
  status!: 'ok';
}

/** The last sync run, as readiness reports it with `operations`. */
export class LastSyncDto {
  @ApiProperty({ enum: ['succeeded', 'failed', 'skipped', 'interrupted'] })
  status!: SyncRunStatus;

  @ApiProperty({ format: 'date-time', example: '2026-03-14T12:00:00Z' })
  finishedAt!: string;

  @ApiProperty({ type: Number, nullable: true, description: 'Seconds the data lagged the operations system' })
  lagSeconds!: number | null;
}

/** One checked component; the members after `responseTime` belong to one component each. */
export class HealthIndicatorDto {
  @ApiProperty({
    enum: ['up', 'degraded', 'down'],
    description: '`down` makes the service unready; `degraded` is reported only',
  })
  status!: 'up' | 'degraded' | 'down';

  @ApiPropertyOptional({ description: 'Why the component is degraded or down' })
  message?: string;

  @ApiPropertyOptional({ description: 'Time the check took, in ms' })
  responseTime?: number;

  @ApiPropertyOptional({ enum: ['pglite', 'postgres'], description: '`database`: the driver in use' })
  driver?: 'pglite' | 'postgres';

  @ApiPropertyOptional({
    example: 'http',
    description: '`operations`: the adapter to the operations system',
  })
  adapter?: string;

  @ApiPropertyOptional({
    enum: ['closed', 'open', 'half-open', 'isolated'],
    description: '`operations`: the circuit breaker around the adapter',
  })
  circuit?: OperationsCircuitState;

  @ApiPropertyOptional({
    ...nullableRef(LastSyncDto),
    description: '`operations`: `null` before the first run',
  })
  lastSync?: LastSyncDto | null;

  @ApiPropertyOptional({ description: '`redis`: whether a Redis is configured' })
  enabled?: boolean;

  @ApiPropertyOptional({ description: '`redis`: whether it answers (absent when none is configured)' })
  available?: boolean;
}

const indicators = (description: string, example: Record<string, unknown>) =>
  ApiProperty({
    description,
    type: 'object',
    additionalProperties: { $ref: getSchemaPath(HealthIndicatorDto) },
    example,
  });

const READY_EXAMPLE = {
  database: { status: 'up', driver: 'postgres', responseTime: 2 },
  initialData: { status: 'up' },
  lifecycle: { status: 'up' },
  operations: {
    status: 'degraded',
    adapter: 'http',
    circuit: 'open',
    lastSync: { status: 'failed', finishedAt: '2026-03-14T12:00:00Z', lagSeconds: 120 },
    message: 'operations circuit open; last sync failed',
  },
  redis: { status: 'up', enabled: true, available: true },
};

/**
 * The readiness report (the @nestjs/terminus format). `database`, `initialData` and `lifecycle`
 * decide readiness; `operations` and `redis` are reported and at worst `degraded`.
 */
export class ReadinessResponseDto {
  @ApiProperty({
    enum: ['ok', 'degraded', 'error', 'shutting_down'],
    description: '`ok` or `degraded` with 200; `error` or `shutting_down` in the 503 problem',
  })
  status!: 'ok' | 'degraded' | 'error' | 'shutting_down';

  @indicators('The components that are up or degraded', {})
  info!: Record<string, HealthIndicatorDto>;

  @indicators('The components that are down', {})
  error!: Record<string, HealthIndicatorDto>;

  @indicators('Every component', READY_EXAMPLE)
  details!: Record<string, HealthIndicatorDto>;
}

/** Readiness' 503: not one of the API's problems, but shaped the same way. */
export const NOT_READY_PROBLEM = {
  type: '/problems/not-ready',
  title: 'Service not ready',
  status: 503,
} as const;

/** 503 from readiness: a problem document carrying the whole report. */
export class NotReadyProblemDto extends ProblemResponseDto {
  @ApiProperty({ enum: [NOT_READY_PROBLEM.type], example: NOT_READY_PROBLEM.type })
  declare type: string;

  @ApiProperty({ enum: [NOT_READY_PROBLEM.title], example: NOT_READY_PROBLEM.title })
  declare title: string;

  @ApiProperty({ type: ReadinessResponseDto, description: 'The readiness report that failed' })
  checks!: ReadinessResponseDto;
}

/** The document's example of readiness' 503. */
export const NOT_READY_EXAMPLE = {
  ...NOT_READY_PROBLEM,
  detail: 'Not ready: database: the database did not answer',
  instance: '/health/ready',
  requestId: 'b8e1f0c2-7d4a-4e1b-9c3f-2a6d8e0b1c57',
  checks: {
    status: 'error',
    info: { lifecycle: { status: 'up' } },
    error: { database: { status: 'down', message: 'the database did not answer' } },
    details: {
      database: { status: 'down', message: 'the database did not answer' },
      lifecycle: { status: 'up' },
    },
  },
};
