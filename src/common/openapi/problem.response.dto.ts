import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

export class FieldErrorDto {
  @ApiProperty({ enum: ['query', 'body', 'path', 'header'] })
  in!: string;

  @ApiProperty({ example: 'pageSize' })
  name!: string;

  @ApiProperty({ example: 'must be an integer between 1 and 100' })
  message!: string;
}

/** RFC 9457 problem details, as every error answer carries them (`application/problem+json`). */
export class ProblemResponseDto {
  @ApiProperty({ example: '/problems/invalid-request' })
  type!: string;

  @ApiProperty({ example: 'Invalid request' })
  title!: string;

  @ApiProperty({ example: 400 })
  status!: number;

  @ApiPropertyOptional({ example: 'pageSize must be an integer between 1 and 100' })
  detail?: string;

  @ApiProperty({ example: '/api/processes?pageSize=500' })
  instance!: string;

  @ApiProperty({ description: 'The X-Request-Id of the request; quote it when reporting a problem' })
  requestId!: string;

  @ApiPropertyOptional({ type: [FieldErrorDto], description: 'On 400s: every offending field' })
  errors?: FieldErrorDto[];
}
