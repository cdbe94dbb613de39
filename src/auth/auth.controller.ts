import { Body, Controller, Header, HttpCode, HttpStatus, Ip, Post, UseGuards } from '@nestjs/common';
import { ApiConsumes, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiLoginProblemResponses } from '../common/openapi/api-problem-responses.decorator.js';
import { AuthService } from './auth.service.js';
import { LoginRequestDto } from './dto/login.request.dto.js';
import { LoginResponseDto } from './dto/login.response.dto.js';
import { Public } from './jwt/public.decorator.js';
import { RequireJsonGuard } from '../common/http/require-json.guard.js';

@ApiTags('auth')
@Controller('api/auth')
export class AuthController {
  constructor(private readonly auth: AuthService) {}

  @Post('login')
  @Public()
  @UseGuards(RequireJsonGuard)
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
  @ApiOkResponse({
    type: LoginResponseDto,
    headers: { 'Cache-Control': { required: true, schema: { type: 'string', enum: ['no-store'] } } },
  })
  @ApiLoginProblemResponses([400, 401, 413, 415, 429, 503], {
    in: 'body',
    name: 'username',
    message: 'is required',
  })
  login(@Body() body: LoginRequestDto, @Ip() clientAddress: string | undefined): Promise<LoginResponseDto> {
    return this.auth.login(body.username, body.password, clientAddress);
  }
}
