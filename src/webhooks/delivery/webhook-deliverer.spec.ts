import { RequestActivity } from '../../common/http/request-activity.js';
import type { AppConfig } from '../../config/app.config.js';
import type { DatabaseService } from '../../database/database.service.js';
import { FakeClock } from '../../testing/fake-clock.js';
import { SecretCipher } from '../security/secret-cipher.js';
import { DeliveryPacer } from './delivery-pacer.js';
import type {
  AttemptResult,
  DeliveryRepository,
  LeasedSubscription,
  NextChange,
} from './delivery.repository.js';
import { RETRY_DELAYS_MS } from './retry-schedule.js';
import { WebhookDeliverer } from './webhook-deliverer.js';
import type { TransportOutcome, WebhookTransport } from './webhook-transport.js';

/** Resolves after the promises and I/O queued so far have run. */
const settled = () => new Promise((resolve) => setImmediate(resolve));

/**
 * One subscription's row as the leasing statements treat it, with a change waiting. Its lease is
 * given back at once, as the database does, while the answer to that write comes when the test says.
 */
class OneSubscription {
  readonly id = '00000000-0000-4000-8000-000000000001';
  leaseOwner: string | null = null;
  leaseUntil = 0;
  nextAttemptAt = 0;
  failedAttempts = 0;
  private readonly releasesAnswered: Array<() => void> = [];

  constructor(private readonly secret: string) {}

  readonly repository = {
    claim: (
      owner: string,
      now: Date,
      leaseUntil: Date,
      _limit: number,
      workedHere: readonly string[] = [],
    ) => {
      const free = this.leaseOwner === null || this.leaseUntil <= now.getTime();
      if (!free || this.nextAttemptAt > now.getTime() || workedHere.includes(this.id)) {
        return Promise.resolve([]);
      }
      this.leaseOwner = owner;
      this.leaseUntil = leaseUntil.getTime();
      return Promise.resolve([this.leased()]);
    },
    nextChange: (): Promise<NextChange> =>
      Promise.resolve({
        active: true,
        change: { position: 1, cursor: 'msg_1', kind: 'PROCESS_UPDATED', recordedAtMs: 0, json: '{}' },
        lastPosition: 1,
        prunedThrough: 0,
      }),
    record: (result: AttemptResult) => {
      if (this.leaseOwner !== result.leaseOwner) return Promise.resolve(false);
      this.failedAttempts = result.failedAttempts;
      this.nextAttemptAt = result.nextAttemptAt?.getTime() ?? 0;
      if (result.leaseUntil === null) this.leaseOwner = null;
      return Promise.resolve(true);
    },
    release: (_id: string, owner: string) => {
      if (this.leaseOwner === owner) this.leaseOwner = null;
      return new Promise<void>((resolve) => this.releasesAnswered.push(resolve));
    },
  };

  /** The answers to the lease's give-backs so far arrive. */
  answerReleases(): void {
    for (const answer of this.releasesAnswered.splice(0)) answer();
  }

  private leased(): LeasedSubscription {
    return {
      id: this.id,
      url: 'https://hooks.example.com/in',
      kinds: null,
      customerIds: null,
      position: 0,
      failedAttempts: this.failedAttempts,
      secret: this.secret,
      retiredSecrets: [],
    };
  }
}

describe(WebhookDeliverer.name, () => {
  it('retries a subscription claimed again as its failed attempt’s work was ending: the lease taken then is not left held', async () => {
    const clock = new FakeClock();
    const cipher = new SecretCipher({ webhooks: { secretKey: Buffer.alloc(32, 7) } } as AppConfig);
    const subscription = new OneSubscription(cipher.encrypt('whsec_test'));
    const sent: string[] = [];
    const transport: WebhookTransport = {
      send: (): Promise<TransportOutcome> => {
        sent.push(clock.now().toISOString());
        return Promise.resolve({
          kind: 'failed',
          failure: 'network',
          error: 'connection reset',
          durationMs: 1,
        });
      },
    };
    const deliverer = new WebhookDeliverer(
      subscription.repository as unknown as DeliveryRepository,
      transport,
      cipher,
      {} as DatabaseService,
      clock,
      { attempted: () => {}, delivered: () => {} },
      // An API serving no requests: nothing is paced.
      new DeliveryPacer(new RequestActivity()),
    );

    // The first attempt fails: its outcome is written (the lease given back with it), and the
    // give-back that ends its work is written too, its answer still on the way.
    deliverer.wake();
    await settled();
    expect(sent).toHaveLength(1);
    expect(subscription.failedAttempts).toBe(1);
    // The retry falls due and the deliverer looks for due work (a new change, its poll) just then.
    clock.advance(RETRY_DELAYS_MS[0] * 1.2);
    deliverer.wake();
    await settled();
    // The give-back's answer comes: the work ends, and the retry is made.
    subscription.answerReleases();
    await settled();

    expect(sent).toHaveLength(2);
    subscription.answerReleases();
    await deliverer.stop();
  });
});
