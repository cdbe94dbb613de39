import { ApiProperty } from '@nestjs/swagger';
import { SCOPE_NAMES } from '../../../domain/scopes.js';

/** RFC 8414, the members this authorization server has. */
export class AuthorizationServerMetadataResponseDto {
  @ApiProperty({ description: 'The `iss` of every token this service issues', example: 'process-lookup' })
  issuer!: string;

  @ApiProperty({ format: 'uri', example: 'https://api.example.com/api/oauth/token' })
  token_endpoint!: string;

  @ApiProperty({ enum: ['client_credentials'], isArray: true })
  grant_types_supported!: string[];

  @ApiProperty({ enum: ['client_secret_basic', 'client_secret_post'], isArray: true })
  token_endpoint_auth_methods_supported!: string[];

  @ApiProperty({ enum: SCOPE_NAMES, isArray: true })
  scopes_supported!: string[];
}
