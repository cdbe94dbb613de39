import { Global, Module } from '@nestjs/common';
import { OutageClassifier } from '../common/problems/outage-classifier.js';
import { AppConfig } from '../config/app.config.js';
import { DatabaseOutageClassifier } from './database-outage.classifier.js';
import { DatabaseService } from './database.service.js';

/**
 * Connects and migrates before any other provider can query; tells the problem filter which
 * database failures are outages.
 */
@Global()
@Module({
  providers: [
    {
      provide: DatabaseService,
      inject: [AppConfig],
      useFactory: async (config: AppConfig) => {
        const database = await DatabaseService.connect(config.database);
        await database.migrate();
        return database;
      },
    },
    { provide: OutageClassifier, useClass: DatabaseOutageClassifier },
  ],
  exports: [DatabaseService, OutageClassifier],
})
export class DatabaseModule {}
