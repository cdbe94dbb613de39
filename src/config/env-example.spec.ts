import { readFileSync } from 'node:fs';
import { getMetadataStorage } from 'class-validator';
import { EnvironmentVariables } from './environment.variables.js';

const ENV_EXAMPLE = new URL('../../.env.example', import.meta.url);

/** The variables `.env.example` sets, commented out or not. */
function exampleVariables(): string[] {
  return [...readFileSync(ENV_EXAMPLE, 'utf8').matchAll(/^#?\s*([A-Z][A-Z0-9_]*)=/gm)].map(
    (match) => match[1]!,
  );
}

/** The variables the configuration validates: every one it reads. */
function configuredVariables(): string[] {
  const validations = getMetadataStorage().getTargetValidationMetadatas(
    EnvironmentVariables,
    '',
    true,
    false,
  );
  return [...new Set(validations.map((validation) => validation.propertyName))];
}

describe('.env.example', () => {
  it('lists exactly the variables the configuration reads, each once', () => {
    const listed = exampleVariables();

    expect(listed.filter((name, index) => listed.indexOf(name) !== index)).toEqual([]);
    expect([...listed].sort()).toEqual(configuredVariables().sort());
  });
});
