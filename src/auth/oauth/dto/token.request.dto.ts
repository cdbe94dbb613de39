import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { CLIENT_CREDENTIALS_GRANT } from '../token-request.js';

/**
 * The token request's form, as the document describes it. The endpoint reads the form itself
 * (token-request.ts), since its errors are RFC 6749 error objects rather than a validation 400.
 */
export class TokenRequestDto {
  @ApiProperty({ enum: [CLIENT_CREDENTIALS_GRANT] })
  grant_type!: string;

  @ApiPropertyOptional({
    description: 'Space-separated scopes, each one the client’s; absent: every scope of the client',
    maxLength: 256,
    example: 'processes:read changes:read',
  })
  scope?: string;

  @ApiPropertyOptional({
    description: '`client_secret_post` only; with HTTP Basic, leave both out',
    maxLength: 64,
    example: 'plc_8Zq3v1Xw0bT4nYc2LmQa9d',
  })
  client_id?: string;

  @ApiPropertyOptional({
    description: '`client_secret_post` only',
    maxLength: 64,
    example: 'pls_3q2-7wEyq0cS1nV9fXbJ4kR8tLmZ6aH5dG2pU0oYiWe',
  })
  client_secret?: string;
}
