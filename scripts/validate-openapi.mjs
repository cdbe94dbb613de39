// Validates openapi.json against the OpenAPI specification (schema and semantics: unique
// operationIds, declared path parameters, resolvable references), as client generators read it.
import { validate } from '@readme/openapi-parser';

const result = await validate('openapi.json');
if (!result.valid) {
  for (const error of result.errors) console.error(error.message);
  process.exit(1);
}
for (const warning of result.warnings) console.warn(warning.message);
console.log(`openapi.json is a valid ${result.specification} document`);
