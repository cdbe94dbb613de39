import 'reflect-metadata';
import { existsSync } from 'node:fs';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { AppModule } from './app.module.js';
import { configureApp } from './app.setup.js';
import { InitialDataState } from './demo/initial-data.state.js';
import { logStartupBanner } from './startup-banner.js';
import { ServiceExpressAdapter } from './common/http/http-server-settings.js';
import { AppConfig } from './config/app.config.js';
import { startupLogSettings } from './config/server.config.js';
import { enableGracefulShutdown } from './lifecycle/graceful-shutdown.js';
import { PinoNestLogger } from './logging/pino-nest-logger.js';
import { createRootLogger } from './logging/root-logger.js';

if (existsSync('.env')) process.loadEnvFile('.env');

const app = await NestFactory.create<NestExpressApplication>(AppModule, new ServiceExpressAdapter(), {
  bodyParser: false,
  // Kept beside the parsed body for the routes that verify a signature over the bytes.
  rawBody: true,
  bufferLogs: true,
  // What start-up logs before `configureApp` installs the configured logger, and the error that
  // stops it (invalid configuration, a database out of reach), as JSON lines like the rest.
  logger: new PinoNestLogger(createRootLogger(startupLogSettings(process.env), null)),
});
configureApp(app);
const config = app.get(AppConfig);
enableGracefulShutdown(app, config.shutdownGraceMs);
await app.listen(config.port);
// Last of the start-up lines: in demo mode once the first sync and the demo users are in.
void app
  .get(InitialDataState)
  .whenReady()
  .then(() => logStartupBanner(config));
