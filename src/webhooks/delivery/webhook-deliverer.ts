import { randomUUID } from 'node:crypto';
import { setMaxListeners } from 'node:events';
import { Injectable, Logger } from '@nestjs/common';
import { CHANGES_CHANNEL } from '../../changes/change-recorder.js';
import { Clock } from '../../common/clock.js';
import { toUtcInstant } from '../../common/instant.js';
import { DatabaseService } from '../../database/database.service.js';
import type { NotificationSubscription } from '../../database/notification-listener.js';
import { SecretCipher } from '../security/secret-cipher.js';
import { deliveryHeaders } from '../security/webhook-signature.js';
import { signingSecrets } from '../security/signing-secrets.js';
import { deliveryBody } from '../webhook-message.js';
import { inAttemptSpan } from './attempt-span.js';
import { DeliveryMetrics } from './delivery-metrics.js';
import { verdictOf, type AttemptVerdict } from './delivery-outcomes.js';
import { DeliveryPacer } from './delivery-pacer.js';
import { DeliveryRepository, type LeasedSubscription, type PendingChange } from './delivery.repository.js';
import { nextRetryDelayMs, retryAfterMs } from './retry-schedule.js';
import { WebhookTransport } from './webhook-transport.js';

/**
 * How long a lease lasts without a write: longer than an attempt may take (15 s), so a live
 * instance always renews it in time, and short enough that a dead one's subscriptions go on
 * elsewhere within 30 s.
 */
export const LEASE_MS = 20_000;
/** Due retries and expired leases are looked for this often (new changes wake the deliverer at once). */
const POLL_EVERY_MS = 1000;
/**
 * Subscriptions this instance delivers to at once. A receiver that never answers holds its
 * subscription's place for the whole 15 s of an attempt, but what it holds is a socket and a
 * pending promise, not a core nor a database connection (those are taken only between attempts,
 * and requests come first: `DeliveryPacer`, whose turns such receivers share only among themselves).
 * So the places are many: hundreds of dead receivers leave room for every healthy subscription,
 * whose next change goes out as soon as it is recorded, and a slow receiver holds back only its own
 * subscription.
 */
const SUBSCRIPTIONS_IN_FLIGHT = 512;
/** Changes delivered to one subscription before its lease is given back for others to claim. */
const CHANGES_PER_TURN = 100;

const PRUNED_REASON =
  'the changes after its position are no longer kept: replay from a cursor or an instant within retention';
const SECRET_UNREADABLE_REASON =
  'its secret cannot be decrypted with the configured WEBHOOK_SECRET_KEY: rotate the secret, then resume';

/**
 * Delivers the change feed to webhooks. Each subscription keeps its position in the feed; a
 * leased subscription is sent its next visible change, and its position moves only after a 2xx,
 * in the same transaction as the attempt's log row. A failed change is tried again on the retry
 * schedule, and later changes wait behind it; other subscriptions are worked meanwhile.
 *
 * Whoever hosts it calls {@link start} and {@link stop}: the service's own thread or a delivery
 * thread (see `DeliveryRunner`).
 */
@Injectable()
export class WebhookDeliverer {
  private readonly logger = new Logger(WebhookDeliverer.name);
  /** This instance's name on the leases it holds. */
  readonly instanceId = randomUUID();
  private readonly working = new Map<string, Promise<void>>();
  private readonly stopping = new AbortController();
  private poll: NodeJS.Timeout | null = null;
  private notifications: NotificationSubscription | null = null;
  private claiming: Promise<void> | null = null;
  private claimAgain = false;

  constructor(
    private readonly repository: DeliveryRepository,
    private readonly transport: WebhookTransport,
    private readonly cipher: SecretCipher,
    private readonly database: DatabaseService,
    private readonly clock: Clock,
    private readonly metrics: DeliveryMetrics,
    private readonly pacer: DeliveryPacer,
  ) {
    // Every attempt in flight listens for shutdown on this one signal.
    setMaxListeners(SUBSCRIPTIONS_IN_FLIGHT + 1, this.stopping.signal);
  }

  /** Delivers from now on: due work is looked for at once, every second, and at each new change. */
  async start(): Promise<void> {
    this.poll = setInterval(() => this.wake(), POLL_EVERY_MS);
    this.poll.unref();
    this.notifications = await this.database.listen(CHANGES_CHANNEL, () => this.wake());
  }

  /** Starts nothing more and cuts attempts in flight short (they are sent again); resolves when all ended. */
  async stop(): Promise<void> {
    this.stopping.abort();
    if (this.poll !== null) clearInterval(this.poll);
    await this.notifications?.close();
    await this.claiming;
    await Promise.allSettled(this.working.values());
  }

  /** Looks for due work now; several calls while a claim runs make one more claim after it. */
  wake(): void {
    if (this.stopping.signal.aborted) return;
    if (this.claiming !== null) {
      this.claimAgain = true;
      return;
    }
    this.claiming = this.claimAndStart({ paced: true })
      .catch((error: Error) =>
        this.logger.warn({ msg: 'claiming webhook deliveries failed', error: error.message }),
      )
      .finally(() => {
        this.claiming = null;
        if (this.claimAgain) {
          this.claimAgain = false;
          this.wake();
        }
      });
  }

  /**
   * Delivers until nothing is due at the clock's present time: what a test or a tool waits for.
   * What it claims is not paced: whoever drains is waiting for exactly this.
   */
  async drain(): Promise<void> {
    for (;;) {
      await this.claiming;
      await this.claimAndStart({ paced: false });
      if (this.working.size === 0 && this.claiming === null) return;
      await Promise.allSettled(this.working.values());
    }
  }

  private async claimAndStart({ paced }: { paced: boolean }): Promise<void> {
    const room = SUBSCRIPTIONS_IN_FLIGHT - this.working.size;
    if (room <= 0 || this.stopping.signal.aborted) return;
    const now = this.clock.now();
    // Not those still being worked here. One whose work is ending has given its lease back but is
    // still in `working` until that write's answer comes: leased again here and then skipped below,
    // it would be held by no work until the new lease ran out (a retry 20 s late; on a stopped test
    // clock, never made).
    const workedHere = [...this.working.keys()];
    const claimed = await this.repository.claim(this.instanceId, now, this.leaseFrom(now), room, workedHere);
    for (const subscription of claimed) {
      // Started meanwhile by a claim beside this one (a drain's beside a wake's): worked once.
      if (this.working.has(subscription.id)) continue;
      const work = this.work(subscription, paced).finally(() => {
        this.working.delete(subscription.id);
        this.wake();
      });
      this.working.set(subscription.id, work);
    }
  }

  private async work(subscription: LeasedSubscription, paced: boolean): Promise<void> {
    try {
      for (let turn = 0; turn < CHANGES_PER_TURN && !this.stopping.signal.aborted; turn++) {
        if (!(await this.deliverNext(subscription, paced))) break;
      }
    } catch (error) {
      this.logger.warn({
        msg: 'a webhook delivery failed unexpectedly',
        webhookId: subscription.id,
        error: (error as Error).message,
      });
    } finally {
      await this.repository
        .release(subscription.id, this.instanceId)
        .catch((error: Error) =>
          this.logger.warn({ msg: 'giving back a webhook lease failed', error: error.message }),
        );
    }
  }

  /**
   * Sends the subscription its next change; true when it was delivered and the next may follow.
   * Paced, it waits for its turn before reading or before sending, as its lane says.
   */
  private async deliverNext(subscription: LeasedSubscription, paced: boolean): Promise<boolean> {
    if (paced) await this.pacer.beforeReading(subscription.id, this.stopping.signal);
    if (this.stopping.signal.aborted) return false;
    const next = await this.repository.nextChange(subscription);
    if (!next.active) return false;
    if (subscription.position < next.prunedThrough) {
      await this.repository.disable(subscription, this.instanceId, PRUNED_REASON);
      return false;
    }
    if (next.change === null) {
      if (next.lastPosition > subscription.position) {
        await this.repository.passOver(
          subscription,
          this.instanceId,
          next.lastPosition,
          this.leaseFrom(this.clock.now()),
        );
      }
      return false;
    }
    const secrets = signingSecrets(this.cipher, subscription.secret, subscription.retiredSecrets);
    if (secrets === null) {
      await this.repository.disable(subscription, this.instanceId, SECRET_UNREADABLE_REASON);
      return false;
    }
    if (paced) await this.pacer.beforeSending(subscription.id, this.stopping.signal);
    if (this.stopping.signal.aborted) return false;
    return this.attempt(subscription, next.change, secrets);
  }

  private async attempt(
    subscription: LeasedSubscription,
    change: PendingChange,
    secrets: string[],
  ): Promise<boolean> {
    const attemptedAt = this.clock.now();
    const timestampSeconds = Math.floor(attemptedAt.getTime() / 1000);
    const body = deliveryBody(change.kind, toUtcInstant(new Date(change.recordedAtMs)), change.json);
    const attempt = subscription.failedAttempts + 1;
    const identity = { subscriptionId: subscription.id, messageId: change.cursor, attempt };
    const outcome = await inAttemptSpan(identity, () =>
      this.transport.send({
        url: subscription.url,
        headers: deliveryHeaders({ messageId: change.cursor, timestampSeconds, body }, secrets),
        body,
        signal: this.stopping.signal,
      }),
    );
    // Cut short by shutdown: not an attempt; the change is sent again, by this instance or another.
    if (outcome.kind === 'aborted') return false;
    const verdict = verdictOf(outcome);
    this.pacer.attempted(subscription.id, verdict.outcome === 'success');
    const now = this.clock.now();
    const plan = this.planAfter(verdict, attempt, now);
    const recorded = await this.repository.record({
      subscriptionId: subscription.id,
      leaseOwner: this.instanceId,
      fromPosition: subscription.position,
      advanceTo: verdict.outcome === 'success' ? change.position : null,
      failedAttempts: verdict.outcome === 'success' ? 0 : attempt,
      nextAttemptAt: plan.nextAttemptAt,
      disabledReason: plan.disabledReason,
      leaseUntil: verdict.outcome === 'success' ? this.leaseFrom(now) : null,
      log: {
        messageId: change.cursor,
        kind: change.kind,
        attempt,
        attemptedAt,
        responseStatus: verdict.responseStatus,
        durationMs: outcome.durationMs,
        error: verdict.error,
        nextAttemptAt: plan.nextAttemptAt,
      },
    });
    this.metrics.attempted(verdict.outcome);
    if (!recorded || verdict.outcome !== 'success') return false;
    this.metrics.delivered(change.recordedAtMs, now.getTime());
    subscription.position = change.position;
    subscription.failedAttempts = 0;
    return true;
  }

  /** After a failure: when to try again, or why the subscription is disabled now. */
  private planAfter(
    verdict: AttemptVerdict,
    attempt: number,
    now: Date,
  ): { nextAttemptAt: Date | null; disabledReason: string | null } {
    if (verdict.outcome === 'success') return { nextAttemptAt: null, disabledReason: null };
    if (verdict.gone) return { nextAttemptAt: null, disabledReason: 'the receiver answered 410 Gone' };
    const delay = nextRetryDelayMs(attempt, retryAfterMs(verdict.retryAfter, now.getTime()), Math.random);
    if (delay === null) {
      return {
        nextAttemptAt: null,
        disabledReason: `no success after ${attempt} attempts (last: ${verdict.error})`,
      };
    }
    return { nextAttemptAt: new Date(now.getTime() + delay), disabledReason: null };
  }

  private leaseFrom(now: Date): Date {
    return new Date(now.getTime() + LEASE_MS);
  }
}
