import { All, Controller, Get } from '@nestjs/common';
import {
  ApiExcludeEndpoint,
  ApiExtraModels,
  ApiGoneResponse,
  ApiOperation,
  ApiTags,
  getSchemaPath,
} from '@nestjs/swagger';
import { Public } from '../common/http/public.decorator.js';
import { ProblemException } from '../common/problems/problem.exception.js';
import { PROBLEM_TYPES } from '../common/problems/problem-types.js';
import { RetiredRouteProblemDto } from '../common/openapi/problem.response.dto.js';

/** RFC 9745 `Deprecation` (2026-03-01 as a Unix time) and RFC 8594 `Sunset` of the old route. */
const RETIREMENT_HEADERS = {
  Link: '</api/processes>; rel="successor-version"',
  Deprecation: '@1772323200',
  Sunset: 'Sun, 01 Mar 2026 00:00:00 GMT',
};

const RETIREMENT_DETAIL =
  'GET /api/tracking was retired in March 2026. Use GET /api/processes to list processes and ' +
  'GET /api/processes/{numero} for one process.';

const SUCCESSORS = { list: '/api/processes', detail: '/api/processes/{numero}' };

/** The retired tracking route: every method, any path below it, token or not. */
@ApiTags('legacy')
@Public()
@Controller('api/tracking')
export class LegacyTrackingController {
  // Documented once, as the GET that clients used; the catch-all below answers the same for the rest.
  @Get()
  @ApiOperation({
    operationId: 'trackingRetired',
    summary: 'Retired: use /api/processes',
    deprecated: true,
    description:
      'Every method on `/api/tracking` and `/api/tracking/*` answers `410 Gone` with `Link`, ' +
      '`Deprecation` and `Sunset` headers, with or without a token.',
  })
  @ApiExtraModels(RetiredRouteProblemDto)
  @ApiGoneResponse({
    description: '`/problems/endpoint-retired`, with `successors` naming the routes to use',
    headers: {
      Link: {
        description: 'RFC 8288: the route that replaces this one',
        required: true,
        schema: { type: 'string', enum: [RETIREMENT_HEADERS.Link] },
      },
      Deprecation: {
        description: 'RFC 9745: deprecated since 2026-03-01 (a Unix time)',
        required: true,
        schema: { type: 'string', enum: [RETIREMENT_HEADERS.Deprecation] },
      },
      Sunset: {
        description: 'RFC 8594: retired on that date',
        required: true,
        schema: { type: 'string', enum: [RETIREMENT_HEADERS.Sunset] },
      },
    },
    content: {
      'application/problem+json': {
        schema: { $ref: getSchemaPath(RetiredRouteProblemDto) },
        example: {
          ...PROBLEM_TYPES.endpointRetired,
          detail: RETIREMENT_DETAIL,
          instance: '/api/tracking',
          requestId: 'b8e1f0c2-7d4a-4e1b-9c3f-2a6d8e0b1c57',
          successors: SUCCESSORS,
        },
      },
    },
  })
  retired(): never {
    return this.anyRetired();
  }

  @All(['', '*path'])
  @ApiExcludeEndpoint()
  anyRetired(): never {
    throw new ProblemException(PROBLEM_TYPES.endpointRetired, {
      detail: RETIREMENT_DETAIL,
      headers: RETIREMENT_HEADERS,
      extensions: { successors: SUCCESSORS },
    });
  }
}
