import {
  Body,
  Controller,
  Delete,
  Get,
  Header,
  HttpCode,
  HttpStatus,
  Param,
  Patch,
  Post,
  Res,
  UseGuards,
} from '@nestjs/common';
import {
  ApiConsumes,
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiTags,
} from '@nestjs/swagger';
import type { Response } from 'express';
import type { AuthenticatedUser } from '../../domain/authenticated-user.js';
import { RequireJsonGuard } from '../../common/http/require-json.guard.js';
import { ApiProblemResponses } from '../../common/openapi/api-problem-responses.decorator.js';
import { RequiresUserToken } from '../access/requires-access.decorator.js';
import { CurrentUser } from '../current-user.decorator.js';
import { clientResponse } from './client-responses.js';
import { ClientsService } from './clients.service.js';
import { CreateClientRequestDto, UpdateClientRequestDto } from './dto/client.request.dto.js';
import {
  ClientListResponseDto,
  ClientResponseDto,
  ClientSecretResponseDto,
  CreatedClientResponseDto,
} from './dto/client.response.dto.js';

const NO_STORE = { 'Cache-Control': { required: true, schema: { type: 'string', enum: ['no-store'] } } };
const ID_PARAM = {
  name: 'id',
  description: 'The client application’s id (not its `clientId`)',
  type: String,
  format: 'uuid',
  maxLength: 36,
  example: '3c9a4e2b-8f1d-4b6a-a7c5-0e2d9f8b1a34',
} as const;
/** The offending field of the 400's example. */
const INVALID_SCOPES = {
  in: 'body',
  name: 'scopes',
  message: 'each must be one of processes:read, changes:read, webhooks:manage',
} as const;

@ApiTags('clients')
@RequiresUserToken()
@Controller('api/clients')
export class ClientsController {
  constructor(private readonly clients: ClientsService) {}

  @Get()
  @ApiOperation({
    operationId: 'listClients',
    summary: 'The caller’s client applications',
    description: 'Oldest first, without their secrets (shown only at creation and rotation).',
  })
  @ApiOkResponse({ type: ClientListResponseDto })
  @ApiProblemResponses([401, 429, 503])
  async list(@CurrentUser() user: AuthenticatedUser): Promise<ClientListResponseDto> {
    return { data: (await this.clients.list(user)).map(clientResponse) };
  }

  @Post()
  @UseGuards(RequireJsonGuard)
  @Header('Cache-Control', 'no-store')
  @ApiOperation({
    operationId: 'createClient',
    summary: 'Register a system that signs in with OAuth 2.0 client credentials',
    description:
      'An ERP, a broker’s system or a BI job gets its own `clientId` and `clientSecret` instead of a person’s ' +
      'password, and exchanges them at `POST /api/oauth/token` for access tokens with the `scopes` given here. ' +
      'Its tokens see what the caller sees now (this visibility is kept). The `clientSecret` is shown only here ' +
      'and at rotation. At most 10 client applications per user (409 beyond).',
  })
  @ApiConsumes('application/json')
  @ApiCreatedResponse({
    type: CreatedClientResponseDto,
    headers: {
      Location: {
        description: 'The new client application’s URL',
        required: true,
        schema: { type: 'string', maxLength: 128 },
      },
      ...NO_STORE,
    },
  })
  @ApiProblemResponses([400, 401, 'clientLimitReached', 413, 415, 429, 503], INVALID_SCOPES)
  async create(
    @Body() body: CreateClientRequestDto,
    @CurrentUser() user: AuthenticatedUser,
    @Res({ passthrough: true }) response: Response,
  ): Promise<CreatedClientResponseDto> {
    const { client, clientSecret } = await this.clients.create(user, body);
    response.setHeader('Location', `/api/clients/${client.id}`);
    return { ...clientResponse(client), clientSecret };
  }

  @Get(':id')
  @ApiOperation({
    operationId: 'getClient',
    summary: 'One of the caller’s client applications',
    description: 'Without its secret. Another user’s client application is the same 404 as a missing one.',
  })
  @ApiParam(ID_PARAM)
  @ApiOkResponse({ type: ClientResponseDto })
  @ApiProblemResponses([401, 404, 429, 503])
  async get(@Param('id') id: string, @CurrentUser() user: AuthenticatedUser): Promise<ClientResponseDto> {
    return clientResponse(await this.clients.get(user, id));
  }

  @Patch(':id')
  @UseGuards(RequireJsonGuard)
  @ApiOperation({
    operationId: 'updateClient',
    summary: 'Rename a client application or change its scopes',
    description:
      'Only the members sent change. A scope taken away is refused to the tokens already issued too, within 60 s.',
  })
  @ApiParam(ID_PARAM)
  @ApiConsumes('application/json')
  @ApiOkResponse({ type: ClientResponseDto })
  @ApiProblemResponses([400, 401, 404, 413, 415, 429, 503], INVALID_SCOPES)
  async update(
    @Param('id') id: string,
    @Body() body: UpdateClientRequestDto,
    @CurrentUser() user: AuthenticatedUser,
  ): Promise<ClientResponseDto> {
    return clientResponse(await this.clients.update(user, id, body));
  }

  @Delete(':id')
  @HttpCode(HttpStatus.NO_CONTENT)
  @ApiOperation({
    operationId: 'deleteClient',
    summary: 'Delete a client application',
    description: 'Its secret stops working at once, and the tokens already issued within 60 s.',
  })
  @ApiParam(ID_PARAM)
  @ApiNoContentResponse({ description: 'Deleted' })
  @ApiProblemResponses([401, 404, 429, 503])
  async delete(@Param('id') id: string, @CurrentUser() user: AuthenticatedUser): Promise<void> {
    await this.clients.delete(user, id);
  }

  @Post(':id/secret')
  @HttpCode(HttpStatus.OK)
  @Header('Cache-Control', 'no-store')
  @ApiOperation({
    operationId: 'rotateClientSecret',
    summary: 'Give a client application a new secret',
    description:
      'The secret it replaces keeps working for 24 h, so the system can switch to the new one at its own pace.',
  })
  @ApiParam(ID_PARAM)
  @ApiOkResponse({ type: ClientSecretResponseDto, headers: NO_STORE })
  @ApiProblemResponses([401, 404, 429, 503])
  async rotateSecret(
    @Param('id') id: string,
    @CurrentUser() user: AuthenticatedUser,
  ): Promise<ClientSecretResponseDto> {
    return { clientSecret: await this.clients.rotateSecret(user, id) };
  }
}
