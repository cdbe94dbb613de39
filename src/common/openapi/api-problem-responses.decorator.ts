import { applyDecorators } from '@nestjs/common';
import { ApiExtraModels, ApiResponse, getSchemaPath } from '@nestjs/swagger';
import { PROBLEM_TYPES, type FieldError, type ProblemType } from '../problems/problem-types.js';
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
    description:
      'RFC 6750: `Bearer realm="process-lookup"` when no token came; `error="invalid_token"` with an ' +
      '`error_description` (expired, or invalid or revoked) when the token was refused',
    required: true,
    schema: { type: 'string', pattern: '^Bearer realm="process-lookup"', maxLength: 256 },
  },
};

/** `WWW-Authenticate` of a 403 for a scope the token lacks (RFC 6750, section 3.1). */
const FORBIDDEN_HEADERS: Record<string, HeaderDoc> = {
  'WWW-Authenticate': {
    description:
      'RFC 6750: `Bearer realm="process-lookup", error="insufficient_scope", scope="<the scope needed>"`',
    required: true,
    schema: {
      type: 'string',
      pattern: '^Bearer realm="process-lookup", error="insufficient_scope"',
      maxLength: 256,
    },
  },
};

export type ProblemKey = keyof typeof PROBLEM_TYPES;

/** What each problem's example says (its `instance` is the operation's path, set with the document). */
const EXAMPLE_DETAILS = {
  invalidRequest: "The request breaks the API's rules: `errors` names each offending field",
  invalidCredentials: 'The user name or the password is wrong',
  unauthorized: 'The bearer token has expired',
  insufficientScope: 'This route needs the scope processes:read, which the token lacks',
  notFound: 'No process IMP-2026-999999 that you may see',
  methodNotAllowed: 'DELETE is not allowed here; allowed: GET, HEAD',
  endpointRetired: 'GET /api/tracking was retired in March 2026. Use GET /api/processes.',
  cursorExpired:
    'The cursor is older than the 30 days of changes kept: read the list again, then follow from a fresh cursor',
  clientLimitReached: 'At most 10 client applications per user: delete one first',
  webhookLimitReached: 'At most 10 webhooks per user: delete one first',
  requestTimeout: 'The request did not arrive within 30 s',
  payloadTooLarge: 'The request body exceeds 16 KiB',
  unsupportedMediaType: 'The body must be application/json',
  expectationFailed: 'Only Expect: 100-continue is supported',
  rateLimited: 'Too many requests: try again in 42 seconds',
  headersTooLarge: 'The request headers exceed 16 KiB',
  internal: 'An unexpected error occurred; quote the request id when reporting it',
  operationsUnavailable: 'The operations system did not answer and no usable copy is cached',
  serviceUnavailable: 'The database is unavailable; try again shortly',
} satisfies Record<ProblemKey, string>;

/** An example answer of `problem`, as the service words it; `invalid` is a 400's offending field. */
export function problemExample(problem: ProblemKey, invalid?: FieldError): Record<string, unknown> {
  const { type, title, status } = PROBLEM_TYPES[problem];
  return {
    type,
    title,
    status,
    detail: invalid === undefined ? EXAMPLE_DETAILS[problem] : `${invalid.name} ${invalid.message}`,
    instance: '/',
    requestId: 'b8e1f0c2-7d4a-4e1b-9c3f-2a6d8e0b1c57',
    ...(invalid !== undefined && { errors: [invalid] }),
  };
}

/** Problems one kind of route answers, documented only where named by their key. */
const ROUTE_SPECIFIC: ReadonlySet<ProblemType> = new Set([
  PROBLEM_TYPES.invalidCredentials,
  // The retired route documents its own 410, with the members only it sends.
  PROBLEM_TYPES.endpointRetired,
  PROBLEM_TYPES.clientLimitReached,
  // Declared with the scope a route needs (RequiresScope).
  PROBLEM_TYPES.insufficientScope,
]);

/**
 * Documents error answers as `application/problem+json`, one response per status, naming the
 * problem types it can carry, with an example of the first. A 401 is the refused token's
 * (`/problems/unauthorized`, with `WWW-Authenticate`) unless the operation is the login, whose 401
 * is `/problems/invalid-credentials`. A problem only some routes answer (a limit reached, a scope
 * missing) is named by its key instead of a status. `invalid` is the offending field of the 400's
 * example.
 */
export function ApiProblemResponses(
  statuses: Array<number | ProblemKey>,
  invalid?: FieldError,
): MethodDecorator & ClassDecorator {
  return applyDecorators(
    ApiExtraModels(ProblemResponseDto),
    ...statuses.map((status) =>
      typeof status === 'number'
        ? problemResponse(
            status,
            invalid,
            Object.values(PROBLEM_TYPES).filter(
              (problem) => problem.status === status && !ROUTE_SPECIFIC.has(problem),
            ),
          )
        : problemResponse(PROBLEM_TYPES[status].status, invalid, [PROBLEM_TYPES[status]]),
    ),
  );
}

/**
 * The login's answers: its 401 is a failed login, which carries no `WWW-Authenticate`, and its
 * 503 is the database's (the login never calls the operations system).
 */
export function ApiLoginProblemResponses(
  statuses: number[],
  invalid: FieldError,
): MethodDecorator & ClassDecorator {
  return applyDecorators(
    ApiExtraModels(ProblemResponseDto),
    ...statuses.map((status) =>
      problemResponse(
        status,
        invalid,
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
  invalid: FieldError | undefined,
  problems: ReadonlyArray<(typeof PROBLEM_TYPES)[ProblemKey]>,
): MethodDecorator & ClassDecorator {
  const unauthorized = problems.some((problem) => problem.type === PROBLEM_TYPES.unauthorized.type);
  const forbidden = problems.some((problem) => problem.type === PROBLEM_TYPES.insufficientScope.type);
  const first = (Object.keys(PROBLEM_TYPES) as ProblemKey[]).find(
    (key) => PROBLEM_TYPES[key] === problems[0],
  );
  if (first === undefined) throw new Error(`no problem type answers ${status}`);
  return ApiResponse({
    status,
    description: problems.map((problem) => `\`${problem.type}\`: ${problem.title}`).join('; '),
    headers: unauthorized ? UNAUTHORIZED_HEADERS : forbidden ? FORBIDDEN_HEADERS : HEADERS_BY_STATUS[status],
    content: {
      'application/problem+json': {
        schema: { $ref: getSchemaPath(ProblemResponseDto) },
        example: problemExample(first, status === 400 ? invalid : undefined),
      },
    },
  });
}
