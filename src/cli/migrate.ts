import 'reflect-metadata';
import { existsSync } from 'node:fs';
import { Module } from '@nestjs/common';
import { ConfigModule } from '../config/config.module.js';
import { AppConfig } from '../config/app.config.js';
import { DatabaseService } from '../database/database.service.js';
import { createCliContext } from './nest-context.js';

if (existsSync('.env')) process.loadEnvFile('.env');

/** The configuration only: the service refuses an unmigrated database, this is what migrates it. */
@Module({ imports: [ConfigModule] })
class MigrateModule {}

try {
  const context = await createCliContext(MigrateModule);
  const { database: options } = context.get(AppConfig);
  await context.close();
  const database = await DatabaseService.connect(options);
  try {
    await database.migrate();
  } finally {
    await database.close();
  }
  process.stdout.write(
    `Migrations applied to ${options.url === null ? `PGlite in ${options.pgliteDir}` : 'PostgreSQL'}\n`,
  );
} catch (error) {
  console.error(`error: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
}
