import { Controller, Header, HttpCode, HttpStatus, Ip, Post, Req } from '@nestjs/common';
import {
  ApiBody,
  ApiConsumes,
  ApiExtraModels,
  ApiOkResponse,
  ApiOperation,
  ApiResponse,
  ApiTags,
  getSchemaPath,
} from '@nestjs/swagger';
import type { Request } from 'express';
import { Public } from '../../common/http/public.decorator.js';
import { ApiProblemResponses } from '../../common/openapi/api-problem-responses.decorator.js';
import { TokenRequestDto } from './dto/token.request.dto.js';
import { TokenErrorResponseDto, TokenResponseDto } from './dto/token.response.dto.js';
import { OAUTH_ERRORS, type OAuthErrorCode } from './oauth-errors.js';
import { readTokenRequest } from './token-request.js';
import { TokenService } from './token.service.js';

const NO_STORE = {
  'Cache-Control': { required: true, schema: { type: 'string', enum: ['no-store'] } },
  Pragma: { required: true, schema: { type: 'string', enum: ['no-cache'] } },
};

/** An error object of the document, as the endpoint words it. */
function errorExample(error: OAuthErrorCode, description: string) {
  const { type, title, status } = OAUTH_ERRORS[error];
  return {
    error,
    error_description: description,
    type,
    title,
    status,
    detail: description,
    instance: '/api/oauth/token',
    requestId: 'b8e1f0c2-7d4a-4e1b-9c3f-2a6d8e0b1c57',
  };
}

@ApiTags('oauth')
@ApiExtraModels(TokenErrorResponseDto)
@Public()
@Controller('api/oauth')
export class TokenController {
  constructor(private readonly tokens: TokenService) {}

  @Post('token')
  @HttpCode(HttpStatus.OK)
  @Header('Cache-Control', 'no-store')
  @Header('Pragma', 'no-cache')
  @ApiOperation({
    operationId: 'issueToken',
    summary: 'Issue an access token to a client application (OAuth 2.0 client credentials)',
    description:
      'RFC 6749, section 4.4: `grant_type=client_credentials`, the client authenticating with HTTP Basic ' +
      '(`client_secret_basic`: `client_id:client_secret`, each form-urlencoded, base64 encoded) or with ' +
      '`client_id` and `client_secret` in the form (`client_secret_post`), not both. The token (RFC 9068) acts ' +
      'with the visibility of the user who registered the client, for the scopes granted; there is no refresh ' +
      'token: ask again when it expires. Errors are RFC 6749 error objects (`error`, `error_description`), ' +
      '`application/json`, with the problem members beside them. Failed client authentications count toward the ' +
      'failed-login limits, by client id and by address (429 with `Retry-After`).',
  })
  @ApiConsumes('application/x-www-form-urlencoded')
  @ApiBody({ type: TokenRequestDto })
  @ApiOkResponse({ type: TokenResponseDto, headers: NO_STORE })
  @ApiResponse({
    status: 400,
    description: '`invalid_request`, `unsupported_grant_type` or `invalid_scope`',
    content: {
      'application/json': {
        schema: { $ref: getSchemaPath(TokenErrorResponseDto) },
        example: errorExample('invalid_scope', 'This client may not ask for: webhooks:manage'),
      },
    },
  })
  @ApiResponse({
    status: 401,
    description: '`invalid_client`: unknown client, wrong secret, or a client whose user is disabled',
    headers: {
      'WWW-Authenticate': {
        description: '`Basic realm="process-lookup"` when the client authenticated with HTTP Basic',
        schema: { type: 'string', enum: ['Basic realm="process-lookup"'] },
      },
    },
    content: {
      'application/json': {
        schema: { $ref: getSchemaPath(TokenErrorResponseDto) },
        example: errorExample(
          'invalid_client',
          'The client id or secret is wrong, or the client is no longer allowed',
        ),
      },
    },
  })
  @ApiProblemResponses([413, 429, 503])
  issue(@Req() request: Request, @Ip() clientAddress: string | undefined): Promise<TokenResponseDto> {
    return this.tokens.issue(readTokenRequest(request), clientAddress);
  }
}
