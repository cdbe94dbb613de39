import { Module } from '@nestjs/common';
import { ScheduleModule } from '@nestjs/schedule';
import { ClockModule } from '../common/clock.module.js';
import { AppConfig } from '../config/app.config.js';
import { DatabaseService } from '../database/database.service.js';
import { OperationsModule } from '../operations/operations.module.js';
import { SyncLock } from './sync-lock.js';
import { SyncScheduler } from './sync.scheduler.js';
import { SyncService } from './sync.service.js';

/** The sync lock for the configured database (PostgreSQL advisory lock, or in-process on PGlite). */
export const syncLockProvider = {
  provide: SyncLock,
  inject: [DatabaseService, AppConfig],
  useFactory: (database: DatabaseService, config: AppConfig) =>
    SyncLock.for(database, config.database.url, config.database.statementTimeoutMs),
};

/** Pulls changes from the operations system on a schedule; exports {@link SyncService} for status and on-demand runs. */
@Module({
  imports: [ScheduleModule.forRoot(), ClockModule, OperationsModule],
  providers: [syncLockProvider, SyncService, SyncScheduler],
  exports: [SyncService],
})
export class SyncModule {}
