import type { HeadersObject, OpenAPIObject, ParameterObject } from '@nestjs/swagger';
import { getSchemaPath } from '@nestjs/swagger';
import { problemExample } from './api-problem-responses.decorator.js';
import { ProblemResponseDto } from './problem.response.dto.js';

const REQUEST_ID_HEADER = {
  description:
    "The request's id: the client's own `X-Request-Id` when it is 1-128 characters of `[A-Za-z0-9._-]`, else a new one",
  required: true,
  schema: { type: 'string', pattern: '^[A-Za-z0-9._-]{1,128}$', maxLength: 128 },
};

const problemResponse = (description: string, example?: object) => ({
  description,
  content: {
    'application/problem+json': { schema: { $ref: getSchemaPath(ProblemResponseDto) }, example },
  },
});
const internalProblemResponse = () =>
  problemResponse(
    '`/problems/internal`: an unexpected failure, logged with the request id (no internals in the body)',
    problemExample('internal'),
  );
const defaultProblemResponse = () =>
  problemResponse('Any error not listed (such as 405 with `Allow`, or 413), as RFC 9457 problem details');

/**
 * What holds for every operation, applied once rather than on each controller: every answer
 * carries `X-Request-Id`; a 500 and any error not listed are problem+json answers; an operation
 * that names no security scheme is public and says so (`security: []`), while every one under
 * the bearer token is counted by the per-user limit, whose `RateLimit` headers come on all its
 * answers but a refused token's 401; a problem example's `instance` is the operation's path; a
 * parameter's example is the parameter's own (where generators and test tools read it); and a
 * query parameter that takes several values is declared in the form generated clients send:
 * repeated (`status=OPEN&status=BOOKED`; the service also takes them comma-separated).
 */
export function applyDocumentConventions(
  document: OpenAPIObject,
  rateLimitHeaders: HeadersObject,
): OpenAPIObject {
  writeNullabilityAsOpenApi31(document);
  // A controller-wide decorator hands every operation the same response objects; each operation
  // gets its own before its examples are addressed to it (a JSON copy: structuredClone would keep
  // the sharing).
  document.paths = JSON.parse(JSON.stringify(document.paths)) as OpenAPIObject['paths'];
  for (const [path, pathItem] of Object.entries(document.paths)) {
    for (const method of ['get', 'head', 'post', 'put', 'patch', 'delete', 'options'] as const) {
      const operation = pathItem[method];
      if (operation === undefined) continue;
      const rateLimited = (operation.security ?? []).length > 0;
      operation.security ??= [];
      operation.responses['500'] ??= internalProblemResponse();
      operation.responses.default ??= defaultProblemResponse();
      for (const parameter of operation.parameters ?? []) {
        if ('$ref' in parameter) continue;
        const schema = parameter.schema as { type?: unknown; example?: unknown } | undefined;
        if (schema?.example !== undefined) {
          parameter.example ??= schema.example;
          delete schema.example;
        }
        if (parameter.in === 'query' && schema?.type === 'array') {
          Object.assign(parameter, { style: 'form', explode: true });
        }
      }
      for (const [status, response] of Object.entries(operation.responses)) {
        if (response === undefined || '$ref' in response) continue;
        response.headers = {
          ...response.headers,
          ...(rateLimited && status !== '401' && rateLimitHeaders),
          'X-Request-Id': REQUEST_ID_HEADER,
        };
        const example = response.content?.['application/problem+json']?.example as
          { instance?: string } | undefined;
        if (example !== undefined) {
          response.content!['application/problem+json']!.example = {
            ...example,
            instance: concretePath(path, operation.parameters as ParameterObject[] | undefined),
          };
        }
      }
    }
  }
  return document;
}

/** The path with each of its parameters replaced by the parameter's example. */
function concretePath(path: string, parameters: ParameterObject[] = []): string {
  return path.replace(/\{([^}]+)\}/g, (template, name: string) => {
    const example: unknown = parameters.find(
      (parameter) => parameter.in === 'path' && parameter.name === name,
    )?.example;
    return typeof example === 'string' ? example : template;
  });
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
