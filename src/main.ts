import 'reflect-metadata';
import { existsSync } from 'node:fs';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { AppModule } from './app.module.js';
import { configureApp } from './app.setup.js';
import { AppConfig } from './config/app.config.js';
import { enableGracefulShutdown } from './lifecycle/graceful-shutdown.js';

if (existsSync('.env')) process.loadEnvFile('.env');

const app = await NestFactory.create<NestExpressApplication>(AppModule, {
  bodyParser: false,
  bufferLogs: true,
});
configureApp(app);
const config = app.get(AppConfig);
enableGracefulShutdown(app, config.shutdownGraceMs);
await app.listen(config.port);
