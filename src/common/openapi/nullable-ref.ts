import { getSchemaPath, type ApiPropertyOptions } from '@nestjs/swagger';

/**
 * A property that holds one object of `model` or `null`, in OpenAPI 3.1's terms: one branch refers
 * to the model, the other admits exactly `null`. Every client generator reads this as
 * `Model | null`.
 */
export function nullableRef(model: abstract new (...args: never[]) => unknown): ApiPropertyOptions {
  return {
    oneOf: [{ $ref: getSchemaPath(model) }, { type: 'null' }],
  };
}
