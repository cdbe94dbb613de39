import { Module } from '@nestjs/common';
import { ClockModule } from '../common/clock.module.js';
import { ChangeRetention } from './change-retention.js';
import { ChangeStreamHub } from './change-stream.hub.js';
import { ChangesController } from './changes.controller.js';
import { ChangesRepository } from './changes.repository.js';
import { ChangesService } from './changes.service.js';

/** The change feed: `GET /api/changes`, its live stream, and the retention of recorded changes. */
@Module({
  imports: [ClockModule],
  controllers: [ChangesController],
  providers: [ChangesRepository, ChangesService, ChangeStreamHub, ChangeRetention],
})
export class ChangesModule {}
