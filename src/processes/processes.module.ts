import { Module } from '@nestjs/common';
import { Clock, SystemClock } from '../common/clock.js';
import { OperationsModule } from '../operations/operations.module.js';
import { EnrichmentCacheStore } from './enrichment/enrichment-cache.store.js';
import { MemoryEnrichmentCacheStore } from './enrichment/memory-enrichment-cache.store.js';
import { ProcessEnrichmentService } from './enrichment/process-enrichment.service.js';
import { ProcessesController } from './processes.controller.js';
import { ProcessesRepository } from './processes.repository.js';
import { ProcessesService } from './processes.service.js';

@Module({
  imports: [OperationsModule],
  controllers: [ProcessesController],
  providers: [
    ProcessesService,
    ProcessesRepository,
    ProcessEnrichmentService,
    { provide: EnrichmentCacheStore, useClass: MemoryEnrichmentCacheStore },
    { provide: Clock, useClass: SystemClock },
  ],
})
export class ProcessesModule {}
