import { Controller, Get, Param, Query, Req, Res } from '@nestjs/common';
import {
  type HeadersObject,
  ApiExtraModels,
  ApiHeader,
  ApiNotModifiedResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import type { Request, Response } from 'express';
import type { AuthenticatedUser } from '../domain/authenticated-user.js';
import { RequiresScope } from '../auth/access/requires-access.decorator.js';
import { CurrentUser } from '../auth/current-user.decorator.js';
import { ApiProblemResponses } from '../common/openapi/api-problem-responses.decorator.js';
import { ProcessDetailResponseDto } from './dto/process-detail.response.dto.js';
import { ListProcessesQueryDto } from './dto/list-processes.query.dto.js';
import { NUMERO_MESSAGE, ProcessNumeroParamsDto } from './dto/process-numero.params.dto.js';
import { ProcessListResponseDto } from './dto/process-summary.response.dto.js';
import { paginationLinks } from './pagination-links.js';
import { processAnswer } from './process-http-caching.js';
import { ProcessesService } from './processes.service.js';

const CACHING_HEADERS: HeadersObject = {
  ETag: {
    description: 'Entity tag of the process data; send it back in `If-None-Match`',
    required: true,
    schema: { type: 'string', maxLength: 128 },
  },
  'Cache-Control': { required: true, schema: { type: 'string', enum: ['private, no-cache'] } },
};

@ApiTags('processes')
@RequiresScope('processes:read')
@ApiExtraModels(ProcessListResponseDto, ProcessDetailResponseDto)
@ApiHeader({
  name: 'If-None-Match',
  required: false,
  description: 'An ETag from an earlier answer: 304 when unchanged',
  schema: { type: 'string', maxLength: 1024 },
  example: 'W/"5d41402abc4b2a76"',
})
@Controller('api/processes')
export class ProcessesController {
  constructor(private readonly processes: ProcessesService) {}

  @Get()
  @ApiOperation({
    operationId: 'listProcesses',
    summary: 'List the processes the caller may see',
    description:
      'Paginated and filterable. Every item carries its operational `summary`, its whole follow-up history ' +
      '`follow` and `lastFollow`. List filters take several values repeated or comma-separated. Unknown parameters, ' +
      'a repeated single-value parameter, bracketed parameters (`status[]=`), empty values, ' +
      'non-decimal numbers (`1e3`, `0x10`, `1.5`) and impossible dates are refused with 400. A page past the last ' +
      'is an empty `data` with the true `meta`.',
  })
  @ApiOkResponse({
    type: ProcessListResponseDto,
    headers: {
      ...CACHING_HEADERS,
      Link: {
        description: 'RFC 8288 links: first, last, and prev/next where they exist',
        required: true,
        schema: { type: 'string', maxLength: 8192 },
      },
    },
  })
  @ApiNotModifiedResponse({ description: 'The `If-None-Match` tag still matches', headers: CACHING_HEADERS })
  @ApiProblemResponses([400, 401, 429, 503], {
    in: 'query',
    name: 'pageSize',
    message: 'must be an integer between 1 and 100',
  })
  async list(
    @Query() query: ListProcessesQueryDto,
    @CurrentUser() user: AuthenticatedUser,
    @Req() request: Request,
    @Res({ passthrough: true }) response: Response,
  ): Promise<Buffer> {
    const criteria = query.toCriteria();
    const { body, meta } = await this.processes.list(criteria, user);
    const rawQuery = request.originalUrl.split('?')[1] ?? '';
    response.setHeader(
      'Link',
      paginationLinks(request.path, new URLSearchParams(rawQuery), criteria.page, meta.totalPages),
    );
    return processAnswer(request, response, body);
  }

  @Get(':numero')
  @ApiOperation({
    operationId: 'getProcess',
    summary: 'One process in full',
    description:
      'Parties, shipment, containers, voyages and the complete follow-up, enriched live from the operations ' +
      "system through a cache (`enrichment.status`: FRESH, CACHED or STALE). Another customer's process is the " +
      'same 404 as a missing one. When the operations system fails and no copy younger than ' +
      '`OPERATIONS_STALE_TTL_S` is cached: 503 with `Retry-After`. The ETag does not cover `enrichment`.',
  })
  @ApiOkResponse({ type: ProcessDetailResponseDto, headers: CACHING_HEADERS })
  @ApiNotModifiedResponse({ description: 'The `If-None-Match` tag still matches', headers: CACHING_HEADERS })
  @ApiProblemResponses([400, 401, 404, 429, 503], {
    in: 'path',
    name: 'numero',
    message: NUMERO_MESSAGE,
  })
  async detail(
    @Param() params: ProcessNumeroParamsDto,
    @CurrentUser() user: AuthenticatedUser,
    @Req() request: Request,
    @Res({ passthrough: true }) response: Response,
  ): Promise<Buffer> {
    return processAnswer(request, response, await this.processes.detail(params.numero, user));
  }
}
