import 'reflect-metadata';
import { existsSync } from 'node:fs';
import { Module } from '@nestjs/common';
import { ConfigModule } from '../config/config.module.js';
import { AppConfig } from '../config/app.config.js';
import { DatabaseModule } from '../database/database.module.js';
import { createCliContext } from './nest-context.js';

if (existsSync('.env')) process.loadEnvFile('.env');

/** Applying the migrations is what DatabaseModule does on start-up; this starts only that and exits. */
@Module({ imports: [ConfigModule, DatabaseModule] })
class MigrateModule {}

try {
  const context = await createCliContext(MigrateModule);
  const { database } = context.get(AppConfig);
  await context.close();
  process.stdout.write(
    `Migrations applied to ${database.url === null ? `PGlite in ${database.pgliteDir}` : 'PostgreSQL'}\n`,
  );
} catch (error) {
  console.error(`error: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
}
