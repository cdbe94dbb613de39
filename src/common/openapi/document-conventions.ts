import type { OpenAPIObject } from '@nestjs/swagger';
import { getSchemaPath } from '@nestjs/swagger';
import { ProblemResponseDto } from './problem.response.dto.js';

const REQUEST_ID_HEADER = {
  description:
    "The request's id: the client's own `X-Request-Id` when it is 1-128 characters of `[A-Za-z0-9._-]`, else a new one",
  required: true,
  schema: { type: 'string', pattern: '^[A-Za-z0-9._-]{1,128}$', maxLength: 128 },
};

const problemResponse = (description: string) => ({
  description,
  content: { 'application/problem+json': { schema: { $ref: getSchemaPath(ProblemResponseDto) } } },
});
const INTERNAL_PROBLEM_RESPONSE = problemResponse(
  '`/problems/internal`: an unexpected failure, logged with the request id (no internals in the body)',
);
const DEFAULT_PROBLEM_RESPONSE = problemResponse(
  'Any error not listed (such as 405 with `Allow`, or 413), as RFC 9457 problem details',
);

/**
 * What holds for every operation, applied once rather than on each controller: every answer
 * carries `X-Request-Id`, a 500 and any error not listed are problem+json answers, and a query
 * parameter that takes several values is declared in the form generated clients send: repeated
 * (`status=OPEN&status=BOOKED`; the service also takes them comma-separated).
 */
export function applyDocumentConventions(document: OpenAPIObject): OpenAPIObject {
  writeNullabilityAsOpenApi31(document);
  for (const pathItem of Object.values(document.paths)) {
    for (const method of ['get', 'head', 'post', 'put', 'patch', 'delete', 'options'] as const) {
      const operation = pathItem[method];
      if (operation === undefined) continue;
      operation.responses['500'] ??= INTERNAL_PROBLEM_RESPONSE;
      operation.responses.default ??= DEFAULT_PROBLEM_RESPONSE;
      for (const parameter of operation.parameters ?? []) {
        if ('$ref' in parameter || parameter.in !== 'query') continue;
        if (
          parameter.schema !== undefined &&
          'type' in parameter.schema &&
          parameter.schema.type === 'array'
        ) {
          Object.assign(parameter, { style: 'form', explode: true });
        }
      }
      for (const response of Object.values(operation.responses)) {
        if (response === undefined || '$ref' in response) continue;
        response.headers = { ...response.headers, 'X-Request-Id': REQUEST_ID_HEADER };
      }
    }
  }
  return document;
}

/**
 * OpenAPI 3.1 has no `nullable`: a schema that admits `null` says so in its `type` (and in its
 * `enum`). `@nestjs/swagger` writes `nullable: true` beside a `type`; this rewrites every one.
 */
function writeNullabilityAsOpenApi31(node: unknown): void {
  if (Array.isArray(node)) {
    for (const item of node) writeNullabilityAsOpenApi31(item);
    return;
  }
  if (typeof node !== 'object' || node === null) return;
  const schema = node as { nullable?: unknown; type?: unknown; enum?: unknown[] };
  if (typeof schema.nullable === 'boolean') {
    if (schema.nullable) {
      if (typeof schema.type !== 'string') throw new Error('nullable needs a type beside it');
      schema.type = [schema.type, 'null'];
      if (schema.enum !== undefined && !schema.enum.includes(null)) schema.enum = [...schema.enum, null];
    }
    delete schema.nullable;
  }
  for (const value of Object.values(node)) writeNullabilityAsOpenApi31(value);
}
