import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';

export const NODE_ENVS = ['development', 'production', 'test'] as const;
export type NodeEnvironment = (typeof NODE_ENVS)[number];

/** What a feature's section may depend on beyond its own variables, decided before any section. */
export interface ConfigContext {
  readonly nodeEnv: NodeEnvironment;
  /** No database URL and not production: the sandbox's data and demo users. */
  readonly demoMode: boolean;
  readonly databaseUrl: string | null;
  /** The JWT signing secret, configured or generated: other keys may be derived from it. */
  readonly jwtSecret: string;
}

/**
 * One feature's configuration, declared in `src/<feature>/<feature>.config.ts` beside its code:
 * the class-validator class of its environment variables, and how they become its typed section
 * of `AppConfig`. `loadAppConfig` validates every feature's variables before it maps any.
 */
export interface FeatureConfig<Variables extends object, Section> {
  readonly variables: new () => Variables;
  /** Rules one variable alone cannot show (against another, or the context), as `VARIABLE: message`. */
  problems?(variables: Variables, context: ConfigContext): string[];
  /** Absent for variables read before the service starts, which are only validated here. */
  section?(variables: Variables, context: ConfigContext): Section;
}

/** The environment read through one feature's variables class, and each invalid one as `VARIABLE: message`. */
export function validateVariables<Variables extends object>(
  type: new () => Variables,
  env: NodeJS.ProcessEnv,
): { variables: Variables; problems: string[] } {
  const variables = plainToInstance(type, { ...env }, { excludeExtraneousValues: false });
  const problems = validateSync(variables, { forbidUnknownValues: false, stopAtFirstError: true }).map(
    (error) =>
      `${error.property}: ${Object.values(error.constraints ?? {})
        .map((message) => message.replace(`${error.property} `, ''))
        .join('; ')}`,
  );
  return { variables, problems };
}
