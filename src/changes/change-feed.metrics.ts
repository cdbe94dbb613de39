import { Injectable } from '@nestjs/common';
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { ChangeKind } from '../domain/change-kinds.js';
import type { StreamEndReason } from './change-stream.js';

/** The change feed's metrics: what sync records, and how the streams of this instance fare. */
@Injectable()
export class ChangeFeedMetrics {
  private readonly recorded: Counter<'kind'>;
  private readonly openStreams: Gauge;
  private readonly disconnects: Counter<'reason'>;
  private readonly lag: Histogram;

  constructor(registry: Registry) {
    this.recorded = new Counter({
      name: 'changes_recorded_total',
      help: 'Changes this instance’s sync recorded in the feed, by kind',
      labelNames: ['kind'],
      registers: [registry],
    });
    this.openStreams = new Gauge({
      name: 'change_streams_open',
      help: 'Change streams (Server-Sent Events) open on this instance',
      registers: [registry],
    });
    this.disconnects = new Counter({
      name: 'change_stream_disconnects_total',
      help: 'Change streams ended, by reason (client-closed, token-expired, shutdown, slow-consumer, error)',
      labelNames: ['reason'],
      registers: [registry],
    });
    this.lag = new Histogram({
      name: 'change_feed_delivery_lag_seconds',
      help: 'From a change’s recording to its live delivery to the streams of this instance',
      buckets: [0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30],
      registers: [registry],
    });
  }

  changesRecorded(counts: Partial<Record<ChangeKind, number>>): void {
    for (const [kind, count] of Object.entries(counts)) this.recorded.inc({ kind }, count);
  }

  streamOpened(): void {
    this.openStreams.inc();
  }

  streamEnded(reason: StreamEndReason): void {
    this.openStreams.dec();
    this.disconnects.inc({ reason });
  }

  delivered(recordedAtMs: number, nowMs: number): void {
    this.lag.observe(Math.max(0, nowMs - recordedAtMs) / 1000);
  }
}
