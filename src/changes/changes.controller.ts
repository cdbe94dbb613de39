import { Controller, Get, Header, Headers, Query, Req, Res } from '@nestjs/common';
import { ApiHeader, ApiOkResponse, ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import type { AuthenticatedUser } from '../domain/authenticated-user.js';
import { RequiresScope } from '../auth/access/requires-access.decorator.js';
import { CurrentUser } from '../auth/current-user.decorator.js';
import { tokenExpiresAtMs } from '../auth/jwt/token-expiry.js';
import { unauthorized } from '../auth/jwt/unauthorized.js';
import { Clock } from '../common/clock.js';
import { ApiProblemResponses } from '../common/openapi/api-problem-responses.decorator.js';
import { InvalidRequestException } from '../common/problems/problem.exception.js';
import { ProcessVisibility } from '../visibility/process-visibility.js';
import { isCursor } from './change-cursor.js';
import { ChangeStreamHub } from './change-stream.hub.js';
import { ChangesService } from './changes.service.js';
import { ChangesPageResponseDto } from './dto/change.response.dto.js';
import { ChangesStartQueryDto, ListChangesQueryDto } from './dto/list-changes.query.dto.js';

/** The offending field of the 400's example in the document. */
const INVALID_LIMIT = {
  in: 'query',
  name: 'limit',
  message: 'must be an integer between 1 and 500',
} as const;

/** A page may be kept, by the caller only, and must be asked again before it is used. */
const PAGE_CACHE_CONTROL = 'private, no-cache';

@ApiTags('changes')
@RequiresScope('changes:read')
@Controller('api/changes')
export class ChangesController {
  constructor(
    private readonly changes: ChangesService,
    private readonly hub: ChangeStreamHub,
    private readonly clock: Clock,
    private readonly visibility: ProcessVisibility,
  ) {}

  @Get()
  @ApiOperation({
    operationId: 'listChanges',
    summary: 'What changed in the processes the caller may see, in the order it was recorded',
    description:
      'Replayable by cursor: follow `next` from any cursor and every later change comes exactly once, in order, ' +
      'with no gap, even while sync writes. With neither `after` nor `since` the feed starts at the oldest ' +
      'retained change. Changes are kept `CHANGES_RETENTION_DAYS` (30): an older cursor or `since` is 410 ' +
      '`/problems/cursor-expired` (read the list again, then follow from a fresh cursor); a malformed cursor, or ' +
      'one beyond the end of the feed, is 400. Items carry the ' +
      'common fields, plus `previousStatus`, `follow` or `customsChannel` as their `kind` says.',
  })
  @ApiOkResponse({
    type: ChangesPageResponseDto,
    headers: { 'Cache-Control': { required: true, schema: { type: 'string', enum: [PAGE_CACHE_CONTROL] } } },
  })
  @ApiProblemResponses([400, 401, 410, 429, 503], INVALID_LIMIT)
  @Header('Cache-Control', PAGE_CACHE_CONTROL)
  @Header('Content-Type', 'application/json; charset=utf-8')
  async list(@Query() query: ListChangesQueryDto, @CurrentUser() user: AuthenticatedUser): Promise<Buffer> {
    const { start, limit } = query.toCriteria();
    // The page's JSON as it is, in bytes: no interceptor, whose Observable pipeline would cost
    // more than the rest of the handler.
    return (await this.changes.page(start, limit, this.visibility.of(user))).bytes;
  }

  @Get('stream')
  @ApiOperation({
    operationId: 'streamChanges',
    summary: 'The same feed, pushed as Server-Sent Events',
    description:
      'Each change is an event `change` whose `id` is its cursor and whose `data` is the change as in ' +
      '`GET /api/changes`. Starts after `Last-Event-ID` (header), else after `after` or from `since`, else at the ' +
      'current end of the feed. It sends `retry: 5000` first, and a comment line every `CHANGES_HEARTBEAT_S` ' +
      '(15) seconds. It opens only for a token that has not expired (no clock-skew leeway: 401 otherwise), and ' +
      'when the token expires it sends `event: reauthenticate` (data `{"reason":"token-expired"}`) and closes: ' +
      'refresh the token, then reconnect with `Last-Event-ID`. It also closes when the service shuts down; ' +
      'reconnect the same way. A client that falls more than 1 MiB behind, or takes no bytes for 60 s while some ' +
      'wait for it (replaying or live), is disconnected and resumes the same way. At ' +
      'most `CHANGES_STREAMS_PER_USER` (5) open streams per user, counted across all instances of the service ' +
      'when Redis is configured (per instance otherwise, and while Redis is unreachable): 429 beyond. ' +
      'Browsers’ `EventSource` cannot send `Authorization`: read it with `fetch` (see the API guide).',
  })
  @ApiProduces('text/event-stream')
  @ApiHeader({
    name: 'Last-Event-ID',
    required: false,
    description:
      'The `id` of the last event received: the stream goes on after it (wins over `after`/`since`); empty is ' +
      'the same as absent',
    schema: { type: 'string', pattern: '^[A-Za-z0-9_-]{16}$', maxLength: 16 },
  })
  @ApiOkResponse({
    description:
      'A `text/event-stream` until the token expires: `event: change`, `id: <cursor>`, `data: <Change as JSON>`; ' +
      'last, `event: reauthenticate`',
    content: {
      'text/event-stream': {
        schema: {
          type: 'string',
          example:
            'retry: 5000\n: stream open\n\nid: AAAAAAAAAQn44-hy\nevent: change\ndata: {…}\n\n' +
            'event: reauthenticate\ndata: {"reason":"token-expired"}\n\n',
        },
      },
    },
  })
  @ApiProblemResponses([400, 401, 410, 429, 503], INVALID_LIMIT)
  async stream(
    @Query() query: ChangesStartQueryDto,
    @Headers('last-event-id') lastEventId: string | undefined,
    @CurrentUser() user: AuthenticatedUser,
    @Req() request: Request,
    @Res() response: Response,
  ): Promise<void> {
    const expiresAtMs = tokenExpiresAtMs(request);
    // The guard allows for clock skew; a stream opened on an expired token would close at once, and
    // its client would reconnect with the same token again and again.
    if (expiresAtMs <= this.clock.now().getTime()) throw unauthorized('expired');
    // Browsers and EventSource polyfills send it empty on some reconnections: that is none.
    if (lastEventId === '') lastEventId = undefined;
    if (lastEventId !== undefined && !isCursor(lastEventId)) {
      throw new InvalidRequestException([
        { in: 'header', name: 'Last-Event-ID', message: 'must be the id of an event this stream sent' },
      ]);
    }
    const position =
      lastEventId === undefined
        ? await this.changes.streamStart(query.toStart())
        : await this.changes.streamStart({ after: lastEventId }, { in: 'header', name: 'Last-Event-ID' });
    if (request.method === 'HEAD') {
      // Express answers HEAD with the GET route: the headers a stream would start with, no stream.
      response.status(200).type('text/event-stream').end();
      return;
    }
    await this.hub.open(response, user, position, expiresAtMs);
  }
}
