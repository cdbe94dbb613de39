import {
  Injectable,
  Logger,
  type BeforeApplicationShutdown,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import type { Response } from 'express';
import type { AuthenticatedUser } from '../domain/authenticated-user.js';
import { Clock } from '../common/clock.js';
import { ProblemException } from '../common/problems/problem.exception.js';
import { PROBLEM_TYPES } from '../common/problems/problem-types.js';
import { AppConfig } from '../config/app.config.js';
import { DatabaseService } from '../database/database.service.js';
import type { NotificationSubscription } from '../database/notification-listener.js';
import { ProcessVisibility } from '../visibility/process-visibility.js';
import { ChangeFeedMetrics } from './change-feed.metrics.js';
import { CHANGES_CHANNEL } from './change-recorder.js';
import { ChangeStreamLeases } from './change-stream-leases.js';
import { ChangeBatch, ChangeStream, changeEventOf, type StreamEndReason } from './change-stream.js';
import { ChangesRepository, type ChangeRow } from './changes.repository.js';

/** Changes read per statement, by the fan-out and by a stream's replay. */
const READ_BATCH = 500;
/** How long a client refused for too many streams should wait. */
const STREAM_LIMIT_RETRY_AFTER_S = 30;

/**
 * The live half of the feed on this instance. One subscription to the database's notifications
 * (whichever instance's sync committed); on each, the new changes are read once, for everyone,
 * and handed to every open stream that may see them. A stream first replays from the table what
 * it missed, then joins the fan-out without a gap or a duplicate at the seam (see {@link open}).
 */
@Injectable()
export class ChangeStreamHub implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(ChangeStreamHub.name);
  private readonly streams = new Set<ChangeStream>();
  /** The last position read and fanned out to the live streams. */
  private fannedOut = 0;
  private subscription: NotificationSubscription | null = null;
  private reading: Promise<void> | null = null;
  private readAgain = false;

  constructor(
    private readonly database: DatabaseService,
    private readonly repository: ChangesRepository,
    private readonly config: AppConfig,
    private readonly clock: Clock,
    private readonly metrics: ChangeFeedMetrics,
    private readonly leases: ChangeStreamLeases,
    private readonly visibility: ProcessVisibility,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    this.fannedOut = (await this.repository.extent()).lastPosition;
    this.subscription = await this.database.listen(CHANGES_CHANNEL, () => this.catchUp());
  }

  async beforeApplicationShutdown(): Promise<void> {
    for (const stream of this.streams) stream.end('shutdown');
    await this.subscription?.close();
    await this.reading;
  }

  get openStreams(): number {
    return this.streams.size;
  }

  /**
   * Opens a stream that starts after `position`. Refused (429) before anything is sent when the
   * user already holds the limit (see {@link ChangeStreamLeases}). The replay reads visible changes
   * page by page; each round first notes how far the fan-out has gone, and once a round comes back
   * short, every visible change up to that point has been sent: if the fan-out has not moved
   * meanwhile, the stream joins it (in the same tick, so no batch falls between), otherwise it
   * replays again.
   */
  async open(response: Response, user: AuthenticatedUser, position: number, tokenExpiresAtMs: number) {
    const { streamsPerUser, heartbeatSeconds, stalledReaderMs } = this.config.changes;
    const lease = await this.leases.acquire(user.id);
    if (lease === null) {
      throw new ProblemException(PROBLEM_TYPES.rateLimited, {
        detail: `At most ${streamsPerUser} open change streams per user: close one first`,
        headers: { 'Retry-After': String(STREAM_LIMIT_RETRY_AFTER_S) },
      });
    }
    // A client gone while the lease was taken would never tell the stream it closed.
    if (response.destroyed) {
      lease.release();
      return;
    }
    const stream = new ChangeStream(
      user.id,
      this.visibility.of(user),
      position,
      response,
      (ended, reason) => {
        lease.release();
        this.ended(ended, reason);
      },
    );
    this.streams.add(stream);
    this.metrics.streamOpened();
    stream.open(heartbeatSeconds * 1000, tokenExpiresAtMs - this.clock.now().getTime(), stalledReaderMs);
    try {
      await this.replay(stream);
    } catch (error) {
      this.logger.warn({ msg: 'a change stream failed while replaying', error: (error as Error).message });
      stream.end('error');
    }
  }

  private async replay(stream: ChangeStream): Promise<void> {
    while (!stream.isEnded) {
      const fannedOutBefore = this.fannedOut;
      const rows = await this.repository.after(stream.position, READ_BATCH, stream.visibility);
      if (!stream.deliver(new ChangeBatch(rows.map(changeEventOf)))) return;
      if (rows.length === READ_BATCH) {
        await stream.drained();
        continue;
      }
      stream.position = Math.max(stream.position, fannedOutBefore);
      if (this.fannedOut <= stream.position) {
        stream.live = true;
        return;
      }
    }
  }

  /** Reads what was committed since the last fan-out; one reader at a time, again if asked meanwhile. */
  private catchUp(): void {
    if (this.reading !== null) {
      this.readAgain = true;
      return;
    }
    this.reading = this.readNew()
      .catch((error: Error) =>
        this.logger.warn({ msg: 'the change fan-out failed to read', error: error.message }),
      )
      .finally(() => {
        this.reading = null;
        if (this.readAgain) {
          this.readAgain = false;
          this.catchUp();
        }
      });
  }

  private async readNew(): Promise<void> {
    for (;;) {
      if (this.streams.size === 0) {
        // Nobody to tell: skip ahead without reading.
        this.fannedOut = Math.max(this.fannedOut, (await this.repository.extent()).lastPosition);
        return;
      }
      const rows = await this.repository.after(this.fannedOut, READ_BATCH, { customerIds: null });
      if (rows.length === 0) return;
      this.fanOut(rows);
      if (rows.length < READ_BATCH) return;
    }
  }

  private fanOut(rows: ChangeRow[]): void {
    const now = this.clock.now().getTime();
    const events = rows.map(changeEventOf);
    const lastPosition = rows[rows.length - 1]?.position ?? this.fannedOut;
    const batches = new Map<string, ChangeBatch>();
    for (const stream of this.streams) {
      if (!stream.live) continue;
      let batch = batches.get(stream.audience);
      if (batch === undefined) {
        batch = new ChangeBatch(this.visibility.filter(stream.visibility, events));
        batches.set(stream.audience, batch);
      }
      stream.deliver(batch);
      // Nothing else up to here is for this stream.
      stream.position = Math.max(stream.position, lastPosition);
    }
    this.fannedOut = lastPosition;
    for (const row of rows) this.metrics.delivered(row.recordedAtMs, now);
  }

  private ended(stream: ChangeStream, reason: StreamEndReason): void {
    if (!this.streams.delete(stream)) return;
    this.metrics.streamEnded(reason);
    if (reason === 'slow-consumer') {
      this.logger.warn({ msg: 'a change stream fell behind and was closed', userId: stream.userId });
    }
  }
}
