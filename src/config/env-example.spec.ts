import { readFileSync, readdirSync } from 'node:fs';
import { getMetadataStorage } from 'class-validator';
import { FEATURE_CONFIGS } from './app.config.js';
import type { FeatureConfig } from './feature-config.js';

const SRC = new URL('../', import.meta.url);
const ENV_EXAMPLE = new URL('../../.env.example', import.meta.url);

/** The variables `.env.example` sets, commented out or not. */
function exampleVariables(): string[] {
  return [...readFileSync(ENV_EXAMPLE, 'utf8').matchAll(/^#?\s*([A-Z][A-Z0-9_]*)=/gm)].map(
    (match) => match[1]!,
  );
}

/** Every feature configuration declared in a `src/<folder>/*.config.ts`, wired or not. */
async function declaredFeatureConfigs(): Promise<FeatureConfig<object, unknown>[]> {
  const files = readdirSync(SRC, { recursive: true, encoding: 'utf8' }).filter((path) =>
    /^[^/]+\/[^/]+\.config\.ts$/.test(path),
  );
  const modules = await Promise.all(
    files.map(async (path) => (await import(`../${path.replace(/\.ts$/, '.js')}`)) as object),
  );
  return modules.flatMap((exports) => Object.values(exports).filter(isFeatureConfig));
}

const isFeatureConfig = (value: unknown): value is FeatureConfig<object, unknown> =>
  typeof value === 'object' &&
  value !== null &&
  'variables' in value &&
  typeof value.variables === 'function';

/** The variables a configuration class validates. */
function variablesOf(feature: FeatureConfig<object, unknown>): string[] {
  const validations = getMetadataStorage().getTargetValidationMetadatas(feature.variables, '', true, false);
  return [...new Set(validations.map((validation) => validation.propertyName))];
}

describe('feature configurations', () => {
  it('are each validated at start-up', async () => {
    const declared = await declaredFeatureConfigs();

    const validated: readonly FeatureConfig<object, unknown>[] = Object.values(FEATURE_CONFIGS);
    expect(declared.length).toBeGreaterThan(1);
    expect(declared.filter((feature) => !validated.includes(feature))).toEqual([]);
  });
});

describe('.env.example', () => {
  it('lists exactly the variables the feature configurations read, each once', async () => {
    const listed = exampleVariables();
    const configured = (await declaredFeatureConfigs()).flatMap(variablesOf);

    expect(listed.filter((name, index) => listed.indexOf(name) !== index)).toEqual([]);
    expect(configured.filter((name, index) => configured.indexOf(name) !== index)).toEqual([]);
    expect([...listed].sort()).toEqual(configured.sort());
  });
});
