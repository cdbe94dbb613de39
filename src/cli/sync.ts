import 'reflect-metadata';
import { existsSync } from 'node:fs';
import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ClockModule } from '../common/clock.module.js';
import { ConfigModule } from '../config/config.module.js';
import { DatabaseModule } from '../database/database.module.js';
import { OperationsModule } from '../operations/operations.module.js';
import { SYNC_PROVIDERS } from '../sync/sync.module.js';
import { SyncService } from '../sync/sync.service.js';

if (existsSync('.env')) process.loadEnvFile('.env');

/** One pass, no scheduler: what `npm run sync` starts. */
@Module({
  imports: [ConfigModule, ClockModule, DatabaseModule, OperationsModule],
  providers: SYNC_PROVIDERS,
})
class SyncCommandModule {}

try {
  const context = await NestFactory.createApplicationContext(SyncCommandModule, {
    logger: ['warn', 'error', 'fatal'],
    abortOnError: false,
  });
  context.enableShutdownHooks();
  const outcome = await context.get(SyncService).run();
  await context.close();
  process.stdout.write(`${JSON.stringify(outcome)}\n`);
  process.exitCode = outcome.status === 'succeeded' ? 0 : 1;
} catch (error) {
  console.error(`error: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
}
