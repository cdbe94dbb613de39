import { applyDecorators } from '@nestjs/common';
import { ApiExtraModels, ApiResponse, getSchemaPath } from '@nestjs/swagger';
import { PROBLEM_TYPES } from '../problems/problem-types.js';
import { ProblemResponseDto } from './problem.response.dto.js';

interface HeaderDoc {
  description: string;
  required: boolean;
  schema: { type: 'string'; maxLength?: number; pattern?: string; enum?: string[] };
}

const RETRY_AFTER: HeaderDoc = {
  description: 'Seconds to wait before trying again',
  required: true,
  schema: { type: 'string', pattern: '^[0-9]{1,9}$' },
};

const HEADERS_BY_STATUS: Partial<Record<number, Record<string, HeaderDoc>>> = {
  405: {
    Allow: {
      description: 'The methods the path accepts',
      required: true,
      schema: { type: 'string', maxLength: 64 },
    },
  },
  429: { 'Retry-After': RETRY_AFTER },
  503: { 'Retry-After': RETRY_AFTER },
};

/** `WWW-Authenticate` comes with `/problems/unauthorized` (a token refused), not with a failed login. */
const UNAUTHORIZED_HEADERS: Record<string, HeaderDoc> = {
  'WWW-Authenticate': {
    description: 'The scheme to authenticate with',
    required: true,
    schema: { type: 'string', enum: ['Bearer'] },
  },
};

/**
 * Documents error answers as `application/problem+json`, one response per status, naming the
 * problem types it can carry. A 401 is the refused token's (`/problems/unauthorized`, with
 * `WWW-Authenticate`) unless the operation is the login, whose 401 is `/problems/invalid-credentials`.
 */
export function ApiProblemResponses(...statuses: number[]): MethodDecorator & ClassDecorator {
  return applyDecorators(
    ApiExtraModels(ProblemResponseDto),
    ...statuses.map((status) =>
      problemResponse(
        status,
        Object.values(PROBLEM_TYPES).filter(
          (problem) =>
            problem.status === status &&
            problem !== PROBLEM_TYPES.invalidCredentials &&
            // The retired route documents its own 410, with the members only it sends.
            problem !== PROBLEM_TYPES.endpointRetired,
        ),
      ),
    ),
  );
}

/**
 * The login's answers: its 401 is a failed login, which carries no `WWW-Authenticate`, and its
 * 503 is the database's (the login never calls the operations system).
 */
export function ApiLoginProblemResponses(...statuses: number[]): MethodDecorator & ClassDecorator {
  return applyDecorators(
    ApiExtraModels(ProblemResponseDto),
    ...statuses.map((status) =>
      problemResponse(
        status,
        Object.values(PROBLEM_TYPES).filter(
          (problem) =>
            problem.status === status &&
            problem !== PROBLEM_TYPES.unauthorized &&
            problem !== PROBLEM_TYPES.operationsUnavailable,
        ),
      ),
    ),
  );
}

function problemResponse(
  status: number,
  problems: ReadonlyArray<{ type: string; title: string }>,
): MethodDecorator & ClassDecorator {
  const unauthorized = problems.some((problem) => problem.type === PROBLEM_TYPES.unauthorized.type);
  return ApiResponse({
    status,
    description: problems.map((problem) => `\`${problem.type}\`: ${problem.title}`).join('; '),
    headers: unauthorized ? UNAUTHORIZED_HEADERS : HEADERS_BY_STATUS[status],
    content: {
      'application/problem+json': { schema: { $ref: getSchemaPath(ProblemResponseDto) } },
    },
  });
}
