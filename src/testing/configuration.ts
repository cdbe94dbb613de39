import { ConfigurationError, loadAppConfig } from '../config/app.config.js';

/** The message of the error `loadAppConfig` stops with, or a failure when it does not stop. */
export function problemWith(env: NodeJS.ProcessEnv): string {
  try {
    loadAppConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigurationError);
    return (error as Error).message;
  }
  throw new Error(`expected ${JSON.stringify(env)} to be refused`);
}
