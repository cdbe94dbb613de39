import { Controller, Get, Req } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { Public } from '../../common/http/public.decorator.js';
import { AppConfig } from '../../config/app.config.js';
import { SCOPE_NAMES } from '../../domain/scopes.js';
import { AuthorizationServerMetadataResponseDto } from './dto/authorization-server-metadata.response.dto.js';
import { CLIENT_CREDENTIALS_GRANT, type ClientAuthMethod } from './token-request.js';

const AUTH_METHODS: ClientAuthMethod[] = ['client_secret_basic', 'client_secret_post'];

@ApiTags('oauth')
@Public()
@Controller('.well-known')
export class AuthorizationServerMetadataController {
  constructor(private readonly config: AppConfig) {}

  @Get('oauth-authorization-server')
  @ApiOperation({
    operationId: 'getAuthorizationServerMetadata',
    summary: 'What OAuth 2.0 clients need to know of this service (RFC 8414)',
    description: 'The token endpoint, the one grant type, how clients authenticate, and the scopes.',
  })
  @ApiOkResponse({ type: AuthorizationServerMetadataResponseDto })
  metadata(@Req() request: Request): AuthorizationServerMetadataResponseDto {
    return {
      issuer: this.config.jwt.issuer,
      // Where the client reached this service (behind a proxy, as TRUST_PROXY lets Express see it).
      token_endpoint: `${request.protocol}://${request.get('host') ?? 'localhost'}/api/oauth/token`,
      grant_types_supported: [CLIENT_CREDENTIALS_GRANT],
      token_endpoint_auth_methods_supported: AUTH_METHODS,
      scopes_supported: SCOPE_NAMES,
    };
  }
}
