import { Global, Module } from '@nestjs/common';
import { OutageClassifier } from '../common/problems/outage-classifier.js';
import { AppConfig } from '../config/app.config.js';
import { DatabaseOutageClassifier } from './database-outage.classifier.js';
import { DatabaseService } from './database.service.js';
import { requireMigrated } from './migration-status.js';

/**
 * Connects, and makes sure the database is migrated, before any other provider can query; tells
 * the problem filter which database failures are outages.
 */
@Global()
@Module({
  providers: [
    {
      provide: DatabaseService,
      inject: [AppConfig],
      useFactory: async (config: AppConfig) => {
        const database = await DatabaseService.connect(config.database);
        // A deployment migrates as a step of its own (`npm run migrate`) before it starts or
        // replaces instances; demo mode, a deployment of one, migrates itself.
        if (config.demoMode) await database.migrate();
        else await requireMigrated(database.db);
        return database;
      },
    },
    { provide: OutageClassifier, useClass: DatabaseOutageClassifier },
  ],
  exports: [DatabaseService, OutageClassifier],
})
export class DatabaseModule {}
