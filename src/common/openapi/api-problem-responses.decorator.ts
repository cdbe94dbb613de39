import { applyDecorators } from '@nestjs/common';
import { ApiExtraModels, ApiResponse, getSchemaPath } from '@nestjs/swagger';
import { PROBLEM_TYPES } from '../problems/problem-types.js';
import { ProblemResponseDto } from './problem.response.dto.js';

const HEADERS_BY_STATUS: Partial<
  Record<number, Record<string, { description: string; schema: { type: 'string' } }>>
> = {
  401: { 'WWW-Authenticate': { description: 'Always `Bearer`', schema: { type: 'string' } } },
  405: { Allow: { description: 'The methods the path accepts', schema: { type: 'string' } } },
  429: { 'Retry-After': { description: 'Seconds to wait', schema: { type: 'string' } } },
  503: { 'Retry-After': { description: 'Seconds to wait', schema: { type: 'string' } } },
};

/** Documents error answers as `application/problem+json` with the contract's problem types. */
export function ApiProblemResponses(...statuses: number[]): MethodDecorator & ClassDecorator {
  return applyDecorators(
    ApiExtraModels(ProblemResponseDto),
    ...statuses.map((status) => {
      const problems = Object.values(PROBLEM_TYPES).filter((problem) => problem.status === status);
      return ApiResponse({
        status,
        description: problems.map((problem) => `\`${problem.type}\`: ${problem.title}`).join('; '),
        headers: HEADERS_BY_STATUS[status],
        content: {
          'application/problem+json': { schema: { $ref: getSchemaPath(ProblemResponseDto) } },
        },
      });
    }),
  );
}
