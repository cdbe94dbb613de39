import 'reflect-metadata';
import { existsSync } from 'node:fs';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { AppModule } from './app.module.js';
import { configureApp } from './app.setup.js';
import { InitialDataState } from './demo/initial-data.state.js';
import { AppConfig } from './config/app.config.js';
import { enableGracefulShutdown } from './lifecycle/graceful-shutdown.js';
import { logStartupBanner } from './startup-banner.js';

if (existsSync('.env')) process.loadEnvFile('.env');

const app = await NestFactory.create<NestExpressApplication>(AppModule, {
  bodyParser: false,
  bufferLogs: true,
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
