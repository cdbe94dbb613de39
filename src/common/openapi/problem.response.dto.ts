import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { PROBLEM_TYPES } from '../problems/problem-types.js';

const PROBLEMS = Object.values(PROBLEM_TYPES);

export class FieldErrorDto {
  @ApiProperty({ enum: ['query', 'body', 'path', 'header'] })
  in!: string;

  @ApiProperty({ example: 'pageSize', maxLength: 256 })
  name!: string;

  @ApiProperty({ example: 'must be an integer between 1 and 100', maxLength: 1024 })
  message!: string;
}

/** RFC 9457 problem details, as every error answer carries them (`application/problem+json`). */
export class ProblemResponseDto {
  @ApiProperty({
    enum: [...new Set(PROBLEMS.map((problem) => problem.type))],
    example: PROBLEM_TYPES.invalidRequest.type,
    description: 'The kind of problem; a relative URI, one of the listed values',
  })
  type!: string;

  @ApiProperty({ enum: [...new Set(PROBLEMS.map((problem) => problem.title))], example: 'Invalid request' })
  title!: string;

  @ApiProperty({
    type: 'integer',
    format: 'int32',
    enum: [...new Set(PROBLEMS.map((problem) => problem.status))].sort((a, b) => a - b),
    example: 400,
    description: 'The HTTP status of the answer',
  })
  status!: number;

  @ApiPropertyOptional({ example: 'pageSize must be an integer between 1 and 100', maxLength: 4096 })
  detail?: string;

  @ApiProperty({
    example: '/api/processes?pageSize=500',
    maxLength: 8192,
    description: 'The request target that failed',
  })
  instance!: string;

  @ApiProperty({
    description: 'The X-Request-Id of the request; quote it when reporting a problem',
    pattern: '^[A-Za-z0-9._-]{1,128}$',
    maxLength: 128,
  })
  requestId!: string;

  @ApiPropertyOptional({
    type: [FieldErrorDto],
    maxItems: 100,
    description: 'On 400s: every offending field',
  })
  errors?: FieldErrorDto[];
}

export class RetiredRouteSuccessorsDto {
  @ApiProperty({ enum: ['/api/processes'] })
  list!: string;

  @ApiProperty({ enum: ['/api/processes/{numero}'] })
  detail!: string;
}

/** The 410 of the retired tracking route: a problem naming the routes that replace it. */
export class RetiredRouteProblemDto extends ProblemResponseDto {
  @ApiProperty({ type: RetiredRouteSuccessorsDto })
  successors!: RetiredRouteSuccessorsDto;
}
