import { Injectable } from '@nestjs/common';
import { Counter, Histogram, Registry } from 'prom-client';
import type { SyncOutcome } from './sync.types.js';

/** Told of every sync run (optional in SyncService: absent in the command-line tools). */
export abstract class SyncMetrics {
  abstract runFinished(outcome: SyncOutcome): void;
}

@Injectable()
export class PrometheusSyncMetrics extends SyncMetrics {
  private readonly runs: Counter<'status'>;
  private readonly duration: Histogram<'status'>;

  constructor(registry: Registry) {
    super();
    this.runs = new Counter({
      name: 'sync_runs_total',
      help: 'Sync runs in this instance, by status (succeeded, failed, skipped, interrupted)',
      labelNames: ['status'],
      registers: [registry],
    });
    this.duration = new Histogram({
      name: 'sync_run_duration_seconds',
      help: 'Duration of a sync run, by status',
      labelNames: ['status'],
      buckets: [0.1, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300],
      registers: [registry],
    });
  }

  runFinished(outcome: SyncOutcome): void {
    this.runs.inc({ status: outcome.status });
    this.duration.observe({ status: outcome.status }, outcome.durationMs / 1000);
  }
}
