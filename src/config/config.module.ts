import { Global, Module } from '@nestjs/common';
import { AppConfig, loadAppConfig } from './app.config.js';

/** Reads and validates the environment once; every other module injects {@link AppConfig}. */
@Global()
@Module({
  providers: [{ provide: AppConfig, useFactory: () => loadAppConfig(process.env) }],
  exports: [AppConfig],
})
export class ConfigModule {}
