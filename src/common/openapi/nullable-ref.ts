import { getSchemaPath, type ApiPropertyOptions } from '@nestjs/swagger';

/**
 * A property that holds one object of `model` or `null`, written so that `null` validates under
 * OpenAPI 3.0: `nullable` only widens a `type` beside it, so `nullable` next to a bare `$ref` or an
 * `allOf` still refuses `null`. The second branch admits exactly `null`.
 */
export function nullableRef(model: abstract new (...args: never[]) => unknown): ApiPropertyOptions {
  return {
    oneOf: [{ $ref: getSchemaPath(model) }, { type: 'object', nullable: true, enum: [null] }],
  };
}
