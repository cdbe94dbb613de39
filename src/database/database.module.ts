import { Global, Module } from '@nestjs/common';
import { AppConfig } from '../config/app.config.js';
import { DatabaseService } from './database.service.js';

/** Connects and migrates before any other provider can query. */
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
  ],
  exports: [DatabaseService],
})
export class DatabaseModule {}
