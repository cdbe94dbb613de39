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
  Query,
  Res,
  UseGuards,
} from '@nestjs/common';
import {
  ApiAcceptedResponse,
  ApiBody,
  ApiConsumes,
  ApiCreatedResponse,
  ApiExtraModels,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiTags,
  type CallbacksObject,
  getSchemaPath,
} from '@nestjs/swagger';
import type { Response } from 'express';
import type { AuthenticatedUser } from '../domain/authenticated-user.js';
import { RequiresScope } from '../auth/access/requires-access.decorator.js';
import { CurrentUser } from '../auth/current-user.decorator.js';
import { RequireJsonGuard } from '../common/http/require-json.guard.js';
import { ApiProblemResponses } from '../common/openapi/api-problem-responses.decorator.js';
import { RATE_LIMIT_HEADERS } from '../rate-limit/rate-limit.openapi.js';
import { DELIVERY_ID, ListWebhookDeliveriesQueryDto } from './dto/webhook.query.dto.js';
import {
  CreateWebhookRequestDto,
  ReplayWebhookRequestDto,
  UpdateWebhookRequestDto,
} from './dto/webhook.request.dto.js';
import {
  CreatedWebhookResponseDto,
  WebhookDeliveriesPageResponseDto,
  WebhookListResponseDto,
  WebhookMessageResponseDto,
  WebhookPayloadDto,
  WebhookResponseDto,
  WebhookSecretResponseDto,
} from './dto/webhook.response.dto.js';
import { TEST_EVENT_TYPE } from './webhook-message.js';
import { deliveriesPageResponse, webhookResponse } from './webhook-responses.js';
import { WebhooksService } from './webhooks.service.js';

const SIGNATURE_HEADERS = [
  [
    'webhook-id',
    'The change’s cursor: the same on every retry, replay and resend; the receiver’s idempotency key',
  ],
  ['webhook-timestamp', 'Unix seconds of this attempt'],
  [
    'webhook-signature',
    '`v1,<base64 HMAC-SHA256 of "{webhook-id}.{webhook-timestamp}.{body}">` keyed with the secret’s decoded bytes; ' +
      'one a live secret, space-separated: each secret a rotation replaced signs for 24 h after its replacement',
  ],
] as const;

const signatureParameters = SIGNATURE_HEADERS.map(([name, description]) => ({
  name,
  in: 'header' as const,
  required: true,
  description,
  schema: { type: 'string' as const, maxLength: name === 'webhook-signature' ? 2048 : 256 },
}));
const RECEIVER_ANSWERS = {
  '2XX': { description: 'Received' },
  '410': { description: 'Gone: the webhook is disabled' },
};

/**
 * What the service sends to the URL a creation names, as its callbacks: the changes, and the test
 * message `sendWebhookTest` sends.
 */
const DELIVERY_CALLBACK: CallbacksObject = {
  delivery: {
    '{$request.body#/url}': {
      post: {
        summary: 'A change, delivered',
        // The receiver authenticates the service by the signature headers, not by a scheme.
        security: [],
        description:
          'One change of the feed, in feed order, signed per Standard Webhooks v1. Answer 2xx within 15 s; 410 ' +
          'disables the webhook; anything else is tried again later.',
        parameters: signatureParameters,
        requestBody: {
          required: true,
          content: { 'application/json': { schema: { $ref: getSchemaPath(WebhookPayloadDto) } } },
        },
        responses: RECEIVER_ANSWERS,
      },
    },
  },
  test: {
    '{$request.body#/url}': {
      post: {
        summary: 'The test message',
        security: [],
        description:
          'Sent once when asked (`sendWebhookTest`), signed as deliveries are, with a `webhook-id` of its own ' +
          '(`test_…`); never retried.',
        parameters: signatureParameters,
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: {
                type: 'object',
                required: ['type', 'timestamp', 'data'],
                properties: {
                  type: { type: 'string', enum: [TEST_EVENT_TYPE] },
                  timestamp: { type: 'string', format: 'date-time', description: 'When it was asked for' },
                  data: { type: 'object', additionalProperties: false, description: 'Empty' },
                },
              },
            },
          },
        },
        responses: RECEIVER_ANSWERS,
      },
    },
  },
};

const NO_STORE = { 'Cache-Control': { required: true, schema: { type: 'string', enum: ['no-store'] } } };
const ID_PARAM = {
  name: 'id',
  description: 'The webhook’s id',
  type: String,
  format: 'uuid',
  maxLength: 36,
  example: '0f8b7c1e-4a2d-4c3b-9e5f-6a7b8c9d0e1f',
} as const;

const DELIVERY_ID_PARAM = {
  name: 'deliveryId',
  description: 'An attempt’s `id`, from the deliveries log',
  type: String,
  pattern: DELIVERY_ID.source,
  maxLength: 16,
  example: '1042',
} as const;

/** The offending field each route's 400 example names. */
const INVALID_URL = { in: 'body', name: 'url', message: 'must be an https:// URL' } as const;
const INVALID_START = {
  in: 'body',
  name: 'since',
  message: 'must be an RFC 3339 instant with an offset (2026-03-14T12:00:00Z)',
} as const;
const INVALID_LIMIT = {
  in: 'query',
  name: 'limit',
  message: 'must be an integer between 1 and 100',
} as const;

@ApiTags('webhooks')
@RequiresScope('webhooks:manage')
@ApiExtraModels(WebhookPayloadDto)
@Controller('api/webhooks')
export class WebhooksController {
  constructor(private readonly webhooks: WebhooksService) {}

  @Get()
  @ApiOperation({
    operationId: 'listWebhooks',
    summary: 'The caller’s webhooks',
    description: 'Oldest first, without their secrets (shown only at creation and rotation).',
  })
  @ApiOkResponse({ type: WebhookListResponseDto, headers: RATE_LIMIT_HEADERS })
  @ApiProblemResponses([401, 429, 503])
  async list(@CurrentUser() user: AuthenticatedUser): Promise<WebhookListResponseDto> {
    return { data: (await this.webhooks.list(user)).map(webhookResponse) };
  }

  @Post()
  @UseGuards(RequireJsonGuard)
  @Header('Cache-Control', 'no-store')
  @ApiOperation({
    operationId: 'createWebhook',
    summary: 'Subscribe a URL to the change feed',
    description:
      'Every change the caller may see (as of now: the subscription keeps this visibility), of the `kinds` asked ' +
      'for, is POSTed to `url` in feed order, one at a time, signed per Standard Webhooks v1: body `WebhookPayload`, ' +
      'headers `webhook-id` (the change’s cursor: the receiver’s idempotency key), `webhook-timestamp` and ' +
      '`webhook-signature` (`v1,<base64 HMAC-SHA256 of "{id}.{timestamp}.{body}">` keyed with the secret’s decoded ' +
      'bytes). A 2xx within 15 s is success; otherwise the same change is tried again after 5 s, 5 min, 30 min, 2 h, ' +
      '5 h, 10 h, 14 h, 20 h and 24 h (±10%; a longer `Retry-After` on 429/503 is honoured), later changes waiting ' +
      'behind it; a 410, or the last retry failing, disables the subscription. Redirects are not followed. ' +
      'Delivery starts after `after`, from `since`, or (neither) at the current end of the feed. The `secret` is ' +
      'shown only here and at rotation. At most 10 webhooks per user (409 beyond).',
    callbacks: DELIVERY_CALLBACK,
  })
  @ApiConsumes('application/json')
  // Whole, so that Swagger UI fills in these members only (not `after` and `since` together).
  @ApiBody({
    type: CreateWebhookRequestDto,
    examples: {
      // First, so that Try it out works against the demo (which allows http and local addresses).
      demo: {
        summary: 'Every kind of change, from now on, to `npm run webhooks:listen` beside the demo',
        value: { url: 'http://127.0.0.1:4000/', description: 'webhooks:listen' },
      },
      erp: {
        summary: 'Every kind of change, from now on, to an ERP',
        value: { url: 'https://erp.example.com/hooks/process-lookup', description: 'ERP import' },
      },
    },
  })
  @ApiCreatedResponse({
    type: CreatedWebhookResponseDto,
    headers: {
      Location: {
        description: 'The new webhook’s URL',
        required: true,
        schema: { type: 'string', maxLength: 128 },
      },
      ...NO_STORE,
      ...RATE_LIMIT_HEADERS,
    },
  })
  @ApiProblemResponses([400, 401, 409, 410, 413, 415, 429, 503], INVALID_URL)
  async create(
    @Body() body: CreateWebhookRequestDto,
    @CurrentUser() user: AuthenticatedUser,
    @Res({ passthrough: true }) response: Response,
  ): Promise<CreatedWebhookResponseDto> {
    const { subscription, secret } = await this.webhooks.create(user, body);
    response.setHeader('Location', `/api/webhooks/${subscription.id}`);
    return { ...webhookResponse(subscription), secret };
  }

  @Get(':id')
  @ApiOperation({
    operationId: 'getWebhook',
    summary: 'One of the caller’s webhooks',
    description: 'Without its secret. Another user’s webhook is the same 404 as a missing one.',
  })
  @ApiParam(ID_PARAM)
  @ApiOkResponse({ type: WebhookResponseDto, headers: RATE_LIMIT_HEADERS })
  @ApiProblemResponses([401, 404, 429, 503])
  async get(@Param('id') id: string, @CurrentUser() user: AuthenticatedUser): Promise<WebhookResponseDto> {
    return webhookResponse(await this.webhooks.get(user, id));
  }

  @Patch(':id')
  @UseGuards(RequireJsonGuard)
  @ApiOperation({
    operationId: 'updateWebhook',
    summary: 'Change a webhook’s URL, description or kinds, pause it or resume it',
    description:
      'Only the members sent change. `status: ACTIVE` resumes a paused or disabled webhook where it stopped: the ' +
      'change it stopped at is tried again at once.',
  })
  @ApiParam(ID_PARAM)
  @ApiConsumes('application/json')
  // Named, so that Swagger UI fills in this change only (not a made-up URL it would check).
  @ApiBody({
    type: UpdateWebhookRequestDto,
    examples: { pause: { summary: 'Pause deliveries', value: { status: 'PAUSED' } } },
  })
  @ApiOkResponse({ type: WebhookResponseDto, headers: RATE_LIMIT_HEADERS })
  @ApiProblemResponses([400, 401, 404, 413, 415, 429, 503], INVALID_URL)
  async update(
    @Param('id') id: string,
    @Body() body: UpdateWebhookRequestDto,
    @CurrentUser() user: AuthenticatedUser,
  ): Promise<WebhookResponseDto> {
    return webhookResponse(await this.webhooks.update(user, id, body));
  }

  @Delete(':id')
  @HttpCode(HttpStatus.NO_CONTENT)
  @ApiOperation({
    operationId: 'deleteWebhook',
    summary: 'Delete a webhook',
    description: 'Deliveries stop, and its deliveries log goes with it.',
  })
  @ApiParam(ID_PARAM)
  @ApiNoContentResponse({ description: 'Deleted', headers: RATE_LIMIT_HEADERS })
  @ApiProblemResponses([401, 404, 429, 503])
  async delete(@Param('id') id: string, @CurrentUser() user: AuthenticatedUser): Promise<void> {
    await this.webhooks.delete(user, id);
  }

  @Post(':id/secret')
  @HttpCode(HttpStatus.OK)
  @Header('Cache-Control', 'no-store')
  @ApiOperation({
    operationId: 'rotateWebhookSecret',
    summary: 'Give a webhook a new signing secret',
    description:
      'Every secret replaced goes on signing for 24 h after its replacement (`webhook-signature` lists one ' +
      'signature a live secret: two rotations in a day give three), so the receiver can switch to the new one at ' +
      'its own pace.',
  })
  @ApiParam(ID_PARAM)
  @ApiOkResponse({ type: WebhookSecretResponseDto, headers: { ...NO_STORE, ...RATE_LIMIT_HEADERS } })
  @ApiProblemResponses([401, 404, 429, 503])
  async rotateSecret(
    @Param('id') id: string,
    @CurrentUser() user: AuthenticatedUser,
  ): Promise<WebhookSecretResponseDto> {
    return { secret: await this.webhooks.rotateSecret(user, id) };
  }

  @Post(':id/replay')
  @UseGuards(RequireJsonGuard)
  @HttpCode(HttpStatus.ACCEPTED)
  @ApiOperation({
    operationId: 'replayWebhook',
    summary: 'Deliver again from a cursor or an instant',
    description:
      'Delivery goes back (or on) to after `after`, or to the first change recorded at or after `since`, within ' +
      'the feed’s retention (else 410 `/problems/cursor-expired`). Replayed changes carry their own `webhook-id` ' +
      'again. A disabled webhook is active again; a paused one stays paused.',
  })
  @ApiParam(ID_PARAM)
  @ApiConsumes('application/json')
  // Named, so that Swagger UI fills in a cursor only (not `after` and `since` together).
  @ApiBody({
    type: ReplayWebhookRequestDto,
    examples: {
      fromCursor: {
        summary: 'After a cursor: a change’s `cursor` in the feed, or the webhook’s `position`',
        value: { after: 'AAAAAAAAAQn44-hy' },
      },
    },
  })
  @ApiAcceptedResponse({ type: WebhookResponseDto, headers: RATE_LIMIT_HEADERS })
  @ApiProblemResponses([400, 401, 404, 410, 413, 415, 429, 503], INVALID_START)
  async replay(
    @Param('id') id: string,
    @Body() body: ReplayWebhookRequestDto,
    @CurrentUser() user: AuthenticatedUser,
  ): Promise<WebhookResponseDto> {
    return webhookResponse(await this.webhooks.replay(user, id, body));
  }

  @Get(':id/deliveries')
  @ApiOperation({
    operationId: 'listWebhookDeliveries',
    summary: 'A webhook’s delivery attempts, newest first',
    description:
      'Each attempt with the change it carried (`messageId`, the `webhook-id` sent), the receiver’s status or what ' +
      'failed, and when the change is tried next: what to read when a receiver did not get a change. `outcome` ' +
      'narrows them to the attempts that succeeded or failed.',
  })
  @ApiParam(ID_PARAM)
  @ApiOkResponse({ type: WebhookDeliveriesPageResponseDto, headers: RATE_LIMIT_HEADERS })
  @ApiProblemResponses([400, 401, 404, 429, 503], INVALID_LIMIT)
  async deliveries(
    @Param('id') id: string,
    @Query() query: ListWebhookDeliveriesQueryDto,
    @CurrentUser() user: AuthenticatedUser,
  ): Promise<WebhookDeliveriesPageResponseDto> {
    const { limit, before, outcome } = query.toCriteria();
    return deliveriesPageResponse(await this.webhooks.deliveries(user, id, limit, before, outcome));
  }

  @Post(':id/test')
  @HttpCode(HttpStatus.ACCEPTED)
  @ApiOperation({
    operationId: 'sendWebhookTest',
    summary: 'Send the webhook a test message',
    description:
      'One `{"type": "webhook.test", "timestamp", "data": {}}` message, signed as deliveries are, sent at once and ' +
      'only once (never retried), outside the feed’s order: it neither waits for nor holds back the changes ' +
      'queued. Its attempt shows in the deliveries log (kind `WEBHOOK_TEST`) under the `messageId` answered.',
  })
  @ApiParam(ID_PARAM)
  @ApiAcceptedResponse({ type: WebhookMessageResponseDto, headers: RATE_LIMIT_HEADERS })
  @ApiProblemResponses([401, 404, 429, 503])
  async sendTest(
    @Param('id') id: string,
    @CurrentUser() user: AuthenticatedUser,
  ): Promise<WebhookMessageResponseDto> {
    return { messageId: await this.webhooks.sendTest(user, id) };
  }

  @Post(':id/deliveries/:deliveryId/resend')
  @HttpCode(HttpStatus.ACCEPTED)
  @ApiOperation({
    operationId: 'resendWebhookDelivery',
    summary: 'Send the message of one attempt again',
    description:
      'That attempt’s message, once more, with its own `webhook-id`, at once and outside the feed’s order (to go ' +
      'back to a point and deliver everything after it, replay instead). Never retried; the attempt shows in the ' +
      'deliveries log. 410 `/problems/cursor-expired` when the change is older than the feed’s retention.',
  })
  @ApiParam(ID_PARAM)
  @ApiParam(DELIVERY_ID_PARAM)
  @ApiAcceptedResponse({ type: WebhookMessageResponseDto, headers: RATE_LIMIT_HEADERS })
  @ApiProblemResponses([401, 404, 410, 429, 503])
  async resend(
    @Param('id') id: string,
    @Param('deliveryId') deliveryId: string,
    @CurrentUser() user: AuthenticatedUser,
  ): Promise<WebhookMessageResponseDto> {
    return { messageId: await this.webhooks.resend(user, id, deliveryId) };
  }
}
