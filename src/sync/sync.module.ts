import { Module } from '@nestjs/common';
import { MetricsModule } from '../metrics/metrics.module.js';
import { ScheduleModule } from '@nestjs/schedule';
import { ClockModule } from '../common/clock.module.js';
import { AppConfig } from '../config/app.config.js';
import { DatabaseService } from '../database/database.service.js';
import { OperationsModule } from '../operations/operations.module.js';
import { ChangeRecorder } from '../changes/change-recorder.js';
import { ChangesModule } from '../changes/changes.module.js';
import { ListItemsBackfill } from './list-items-backfill.js';
import { ProcessPageWriter } from './process-page.writer.js';
import { SyncLock } from './sync-lock.js';
import { SyncStateGauges } from './sync-state.gauges.js';
import { SyncStateRepository } from './sync-state.repository.js';
import { SyncScheduler } from './sync.scheduler.js';
import { PrometheusSyncMetrics, SyncMetrics } from './sync.metrics.js';
import { SyncService } from './sync.service.js';
import { NotificationReplayGuard } from './notifications/notification-replay.guard.js';
import { NotificationSignatureGuard } from './notifications/notification-signature.guard.js';
import { OperationsNotificationsController } from './notifications/operations-notifications.controller.js';
import { SyncOnDemand } from './notifications/sync-on-demand.js';

/** The sync lock for the configured database (PostgreSQL advisory lock, or in-process on PGlite). */
export const syncLockProvider = {
  provide: SyncLock,
  inject: [DatabaseService, AppConfig],
  useFactory: (database: DatabaseService, config: AppConfig) =>
    SyncLock.for(database, config.database.url, config.database.statementTimeoutMs),
};

/** What a sync run needs, for this module and the `sync` command's context. */
export const SYNC_PROVIDERS = [
  syncLockProvider,
  SyncStateRepository,
  ChangeRecorder,
  ProcessPageWriter,
  SyncService,
];

/**
 * Pulls changes from the operations system on a schedule and when it notifies a change; exports {@link SyncService} for status and on-demand runs. */
@Module({
  imports: [ScheduleModule.forRoot(), ClockModule, OperationsModule, ChangesModule, MetricsModule],
  controllers: [OperationsNotificationsController],
  providers: [
    ...SYNC_PROVIDERS,
    SyncScheduler,
    SyncOnDemand,
    NotificationSignatureGuard,
    NotificationReplayGuard,
    { provide: SyncMetrics, useClass: PrometheusSyncMetrics },
    SyncStateGauges,
    ListItemsBackfill,
  ],
  exports: [SyncService],
})
export class SyncModule {}
