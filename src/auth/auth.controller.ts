import { Body, Controller, Header, HttpCode, HttpStatus, Ip, Post, UseGuards } from '@nestjs/common';
import { ApiConsumes, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiLoginProblemResponses } from '../common/openapi/api-problem-responses.decorator.js';
import { AuthService } from './auth.service.js';
import { LoginRequestDto } from './dto/login.request.dto.js';
import { LoginResponseDto } from './dto/login.response.dto.js';
import { Public } from '../common/http/public.decorator.js';
import { RefreshTokenRequestDto } from './dto/refresh-token.request.dto.js';
import { RequireJsonGuard } from '../common/http/require-json.guard.js';

const NO_STORE_HEADERS = {
  'Cache-Control': { required: true, schema: { type: 'string', enum: ['no-store'] } },
};
/** The offending field of a refresh's or a logout's 400 in the document. */
const MISSING_REFRESH_TOKEN = { in: 'body', name: 'refreshToken', message: 'is required' } as const;

@ApiTags('auth')
@Public()
@UseGuards(RequireJsonGuard)
@Controller('api/auth')
export class AuthController {
  constructor(private readonly auth: AuthService) {}

  @Post('login')
  @HttpCode(HttpStatus.OK)
  @Header('Cache-Control', 'no-store')
  @ApiOperation({
    operationId: 'login',
    summary: 'Issue an access token',
    description:
      'Exchanges a user name and password for a JWT (HS256). An unknown user, a wrong password and a ' +
      'disabled user get the same 401. After 10 failures within 15 minutes for one user name, or 50 from one ' +
      'client address, every attempt (a correct one included) gets 429 with `Retry-After` until the window ends.',
  })
  @ApiConsumes('application/json')
  @ApiOkResponse({ type: LoginResponseDto, headers: NO_STORE_HEADERS })
  @ApiLoginProblemResponses([400, 401, 413, 415, 429, 503], {
    in: 'body',
    name: 'username',
    message: 'is required',
  })
  login(@Body() body: LoginRequestDto, @Ip() clientAddress: string | undefined): Promise<LoginResponseDto> {
    return this.auth.login(body.username, body.password, clientAddress);
  }

  @Post('refresh')
  @HttpCode(HttpStatus.OK)
  @Header('Cache-Control', 'no-store')
  @ApiOperation({
    operationId: 'refreshToken',
    summary: 'Exchange a refresh token for a new pair',
    description:
      'Refresh tokens are single use: each answer carries the next one. Presenting a spent token ends the whole ' +
      'sign-in (every later token of it is refused), since only a thief replays one. A sign-in lasts at most ' +
      '`refreshExpiresIn` seconds from its login. An unknown, spent, expired or revoked token, or a disabled user, ' +
      'gets 401 `/problems/invalid-credentials`; refusals count toward the failed-login limit of the client address.',
  })
  @ApiConsumes('application/json')
  @ApiOkResponse({ type: LoginResponseDto, headers: NO_STORE_HEADERS })
  @ApiLoginProblemResponses([400, 401, 413, 415, 429, 503], MISSING_REFRESH_TOKEN)
  refresh(
    @Body() body: RefreshTokenRequestDto,
    @Ip() clientAddress: string | undefined,
  ): Promise<LoginResponseDto> {
    return this.auth.refresh(body.refreshToken, clientAddress);
  }

  @Post('logout')
  @HttpCode(HttpStatus.NO_CONTENT)
  @Header('Cache-Control', 'no-store')
  @ApiOperation({
    operationId: 'logout',
    summary: 'End a sign-in',
    description:
      'Ends the sign-in the refresh token belongs to: none of its refresh tokens works any more. Access tokens ' +
      'already issued stay valid until they expire.',
  })
  @ApiConsumes('application/json')
  @ApiNoContentResponse({ description: 'The sign-in has ended', headers: NO_STORE_HEADERS })
  @ApiLoginProblemResponses([400, 401, 413, 415, 429, 503], MISSING_REFRESH_TOKEN)
  logout(@Body() body: RefreshTokenRequestDto, @Ip() clientAddress: string | undefined): Promise<void> {
    return this.auth.logout(body.refreshToken, clientAddress);
  }
}
