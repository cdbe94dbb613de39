import { ApiProperty } from '@nestjs/swagger';
import { OAUTH_ERRORS } from '../oauth-errors.js';

/** RFC 6749, section 5.1: no refresh token for client credentials (the client asks again). */
export class TokenResponseDto {
  @ApiProperty({ description: 'An RFC 9068 JWT: send it as `Authorization: Bearer <token>`' })
  access_token!: string;

  @ApiProperty({ enum: ['Bearer'] })
  token_type!: 'Bearer';

  @ApiProperty({ type: 'integer', format: 'int32', example: 900, description: 'Seconds the token is valid' })
  expires_in!: number;

  @ApiProperty({ example: 'processes:read changes:read', description: 'The scopes granted, space-separated' })
  scope!: string;
}

const ERRORS = Object.values(OAUTH_ERRORS);

/** RFC 6749, section 5.2, with the RFC 9457 problem members beside the OAuth ones. */
export class TokenErrorResponseDto {
  @ApiProperty({ enum: Object.keys(OAUTH_ERRORS) })
  error!: string;

  @ApiProperty({ maxLength: 1024 })
  error_description!: string;

  @ApiProperty({ enum: [...new Set(ERRORS.map((problem) => problem.type))] })
  type!: string;

  @ApiProperty({ enum: [...new Set(ERRORS.map((problem) => problem.title))] })
  title!: string;

  @ApiProperty({
    type: 'integer',
    format: 'int32',
    enum: [...new Set(ERRORS.map((problem) => problem.status))],
  })
  status!: number;

  @ApiProperty({ maxLength: 1024 })
  detail!: string;

  @ApiProperty({ maxLength: 8192 })
  instance!: string;

  @ApiProperty({ pattern: '^[A-Za-z0-9._-]{1,128}$', maxLength: 128 })
  requestId!: string;
}
