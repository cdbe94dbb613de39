import { isDeepStrictEqual } from 'node:util';
import { plainToInstance } from 'class-transformer';
import { getMetadataStorage, validateSync } from 'class-validator';

/** A valid value for each query parameter: what the client would send. */
export type ParameterSamples = Record<string, string | string[]>;

/** The properties of a query DTO that carry validation: the parameters the route accepts. */
export function validatedParameters(type: new () => object): string[] {
  const validations = getMetadataStorage().getTargetValidationMetadatas(type, '', true, false);
  return [...new Set(validations.map((validation) => validation.propertyName))].sort();
}

/**
 * The parameters a query DTO validates but `map` ignores: each one, set alone to its sample,
 * must change what `map` returns for a query without it. A parameter without a sample, or whose
 * sample is refused, throws: the check itself must not go quiet.
 */
export function unmappedParameters<Dto extends object>(
  type: new () => Dto,
  samples: ParameterSamples,
  map: (query: Dto) => unknown,
): string[] {
  const missing = validatedParameters(type).filter((name) => !(name in samples));
  if (missing.length > 0) throw new Error(`no sample for ${missing.join(', ')}`);
  const unset = map(plainToInstance(type, {}));
  return Object.entries(samples)
    .filter(([name, sample]) => {
      const query = plainToInstance(type, { [name]: sample });
      const refused = validateSync(query, { forbidUnknownValues: true });
      if (refused.length > 0) throw new Error(`the sample of ${name} is refused: ${JSON.stringify(refused)}`);
      return isDeepStrictEqual(map(query), unset);
    })
    .map(([name]) => name);
}
