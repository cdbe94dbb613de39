import { Global, Logger, Module } from '@nestjs/common';
import { AppConfig, loadAppConfig } from './app.config.js';

function loadAndReport(): AppConfig {
  const config = loadAppConfig(process.env);
  if (config.jwt.secretGenerated) {
    new Logger('Config').warn(
      'JWT_SECRET is not set: using a random secret, so tokens stop working when the service restarts',
    );
  }
  if (config.nodeEnv === 'production' && config.webhooks.secretKeyDerived) {
    new Logger('Config').warn(
      'WEBHOOK_SECRET_KEY is not set: webhook secrets are encrypted with a key derived from JWT_SECRET, ' +
        'so changing JWT_SECRET makes them unreadable',
    );
  }
  return config;
}

/** Reads and validates the environment once; every other module injects {@link AppConfig}. */
@Global()
@Module({
  providers: [{ provide: AppConfig, useFactory: loadAndReport }],
  exports: [AppConfig],
})
export class ConfigModule {}
