import { Injectable } from '@nestjs/common';
import { sql, type SQL } from 'drizzle-orm';
import { DatabaseService } from '../../database/database.service.js';
import { DummyValue, GenerateSql } from '../../database/generate-sql.decorator.js';
import { prepared, preparedOnce, type PreparedRead } from '../../database/prepared-statements.js';
import { sqlEpochMilliseconds } from '../../database/sql-instant.js';
import { rowsOf } from '../../database/sql-rows.js';
import { WEBHOOK_STATUSES, type WebhookStatus } from '../../database/schema.js';
import type { ChangeKind } from '../../domain/change-kinds.js';
import type { WebhookDelivery } from '../webhook-subscription.js';

/** A subscription an instance has leased, with what delivering its next change needs. */
export interface LeasedSubscription {
  id: string;
  url: string;
  kinds: ChangeKind[] | null;
  customerIds: string[] | null;
  /** The last change delivered. */
  position: number;
  failedAttempts: number;
  /** Encrypted. */
  secret: string;
  /** Encrypted: those rotations replaced that still sign, the latest replaced first. */
  retiredSecrets: string[];
}

/** The next change for a subscription, as the feed stores it. */
export interface PendingChange {
  position: number;
  cursor: string;
  kind: ChangeKind;
  recordedAtMs: number;
  json: string;
}

/** What comes after a subscription's position, read in one snapshot with the feed's extent. */
export interface NextChange {
  /** False once the subscription is paused, disabled or deleted: its turn ends before the next send. */
  active: boolean;
  change: PendingChange | null;
  /** The feed's last position: with no change for the subscription, it may move up to here. */
  lastPosition: number;
  /** Retention deleted the changes up to here. */
  prunedThrough: number;
}

/** Where a message for a subscription goes and the secrets that sign it (encrypted). */
export interface SigningTarget {
  url: string;
  secret: string;
  /** Those rotations replaced that still sign, the latest replaced first. */
  retiredSecrets: string[];
}

/** The row an attempt leaves in the deliveries log (its id is the database's). */
export type AttemptLog = Omit<WebhookDelivery, 'id'>;

/** What an attempt does to its subscription, if this instance still holds it at `fromPosition`. */
export interface AttemptResult {
  subscriptionId: string;
  leaseOwner: string;
  fromPosition: number;
  /** On success, the change's position; null otherwise. */
  advanceTo: number | null;
  failedAttempts: number;
  nextAttemptAt: Date | null;
  /** Why the subscription is disabled now; null to leave its status. */
  disabledReason: string | null;
  /** Keeps the lease until then; null gives it back. */
  leaseUntil: Date | null;
  log: AttemptLog;
}

interface LeasedRow {
  id: string;
  url: string;
  kinds: ChangeKind[] | null;
  customer_ids: string[] | null;
  position: string;
  failed_attempts: number;
  secret: string;
  retired_secrets: string[];
}

interface NextChangeRow {
  active: boolean;
  lastPosition: string;
  prunedThrough: string;
  position: string | null;
  cursor: string | null;
  kind: ChangeKind | null;
  recordedAtMs: string | null;
  body: string | null;
}

/** Whose changes a subscription sees (its creator's), and whether it picks among their kinds. */
interface SubscriptionShape {
  customers: 'every' | 'one' | 'several';
  kinds: 'every' | 'some';
}

const param = {
  id: sql.placeholder('id'),
  after: sql.placeholder('after'),
  customer: sql.placeholder('customer'),
  customers: sql.placeholder('customers'),
  kinds: sql.placeholder('kinds'),
};

/**
 * The deliverers' statements. Work on a subscription is leased (`lease_owner` until
 * `lease_expires_at`): a claim takes only subscriptions whose lease is free or expired, skipping
 * rows another instance is claiming at that moment, and every later write is fenced by the lease
 * and the position it started from, so an instance that lost its lease (it stalled, or it was
 * taken for dead) changes nothing.
 */
/** The subscription the statements' examples work on, as a lease hands it over. */
const A_LEASED_SUBSCRIPTION: LeasedSubscription = {
  id: DummyValue.UUID,
  url: 'https://hooks.example.com/in',
  kinds: null,
  customerIds: null,
  position: 0,
  failedAttempts: 0,
  secret: 'encrypted',
  retiredSecrets: [],
};

/** The attempt the statements' examples log: a 500, to be tried again. */
const A_FAILED_ATTEMPT = {
  messageId: 'msg_1',
  kind: 'STATUS_CHANGED',
  attempt: 1,
  attemptedAt: DummyValue.INSTANT,
  responseStatus: 500,
  durationMs: 120,
  error: 'HTTP 500',
  nextAttemptAt: new Date('2026-03-01T06:00:30Z'),
} as const;

@Injectable()
export class DeliveryRepository {
  private readonly nextChangeStatements = new Map<string, PreparedRead<NextChangeRow>>();

  constructor(private readonly database: DatabaseService) {}

  /**
   * Leases up to `limit` active subscriptions of active users that have a change to look at and
   * are due at `now`, except those in `workedHere` (still being worked by the claiming instance).
   */
  @GenerateSql({
    name: 'the due ones',
    params: ['instance-1', DummyValue.INSTANT, new Date('2026-03-01T06:01:00Z'), 10, [DummyValue.UUID]],
  })
  async claim(
    owner: string,
    now: Date,
    leaseUntil: Date,
    limit: number,
    workedHere: readonly string[],
  ): Promise<LeasedSubscription[]> {
    const rows = await rowsOf<LeasedRow>(
      this.database.db,
      sql`UPDATE webhook_subscriptions s
             SET lease_owner = ${owner}, lease_expires_at = ${leaseUntil.toISOString()}::timestamptz
           WHERE s.id IN (
             SELECT c.id FROM webhook_subscriptions c
              WHERE c.status = 'ACTIVE'
                AND (c.next_attempt_at IS NULL OR c.next_attempt_at <= ${now.toISOString()}::timestamptz)
                AND (c.lease_expires_at IS NULL OR c.lease_expires_at <= ${now.toISOString()}::timestamptz)
                AND c.position < (SELECT last_position FROM change_feed_head)
                -- A disabled user's webhooks wait, as their tokens do.
                AND EXISTS (SELECT 1 FROM users u WHERE u.id = c.owner_id AND u.active)
                AND c.id NOT IN (SELECT json_array_elements_text(${JSON.stringify(workedHere)}::json)::uuid)
              ORDER BY c.next_attempt_at NULLS FIRST, c.id
              LIMIT ${limit}
              FOR UPDATE SKIP LOCKED)
          RETURNING s.id, s.url, s.kinds, s.customer_ids, s.position::text, s.failed_attempts, s.secret,
                    ARRAY(SELECT r.secret FROM webhook_retired_secrets r
                           WHERE r.subscription_id = s.id AND r.expires_at > ${now.toISOString()}::timestamptz
                           ORDER BY r.expires_at DESC) AS retired_secrets`,
    );
    return rows.map((row) => ({
      id: row.id,
      url: row.url,
      kinds: row.kinds,
      customerIds: row.customer_ids,
      position: Number(row.position),
      failedAttempts: row.failed_attempts,
      secret: row.secret,
      retiredSecrets: row.retired_secrets,
    }));
  }

  /**
   * The first change after the subscription's position that it sees (its creator's customers) and
   * asked for (its kinds), with the feed's extent as of the same snapshot. Positions are committed
   * in order, so a change not there now never appears below the extent read with it.
   */
  @GenerateSql(
    {
      name: 'every customer, every kind',
      params: [A_LEASED_SUBSCRIPTION],
    },
    {
      name: 'one customer, some kinds',
      params: [
        { ...A_LEASED_SUBSCRIPTION, kinds: ['STATUS_CHANGED'], customerIds: [DummyValue.CUSTOMER_ID] },
      ],
    },
    {
      name: 'several customers, every kind',
      params: [
        { ...A_LEASED_SUBSCRIPTION, customerIds: [DummyValue.CUSTOMER_ID, DummyValue.OTHER_CUSTOMER_ID] },
      ],
    },
  )
  async nextChange(subscription: LeasedSubscription): Promise<NextChange> {
    const customers = subscription.customerIds;
    const shape: SubscriptionShape = {
      customers: customers === null ? 'every' : customers.length === 1 ? 'one' : 'several',
      kinds: subscription.kinds === null ? 'every' : 'some',
    };
    const statement = preparedOnce(this.nextChangeStatements, `${shape.customers}/${shape.kinds}`, () =>
      this.prepareNextChange(shape),
    );
    const [row] = await statement.execute({
      id: subscription.id,
      after: subscription.position,
      customer: customers?.[0] ?? null,
      customers: JSON.stringify(customers),
      kinds: JSON.stringify(subscription.kinds),
    });
    if (row === undefined) throw new Error('the change feed has no head row: were the migrations applied?');
    return {
      active: row.active,
      lastPosition: Number(row.lastPosition),
      prunedThrough: Number(row.prunedThrough),
      change:
        row.position === null
          ? null
          : {
              position: Number(row.position),
              cursor: row.cursor!,
              kind: row.kind!,
              recordedAtMs: Number(row.recordedAtMs),
              json: row.body!,
            },
    };
  }

  /** Moves past changes that are not for the subscription, up to `toPosition`; false when it lost the lease. */
  @GenerateSql({
    name: 'a leased subscription',
    params: [A_LEASED_SUBSCRIPTION, 'instance-1', 5, new Date('2026-03-01T06:01:00Z')],
  })
  async passOver(
    subscription: LeasedSubscription,
    owner: string,
    toPosition: number,
    leaseUntil: Date,
  ): Promise<boolean> {
    const rows = await rowsOf<{ id: string }>(
      this.database.db,
      sql`UPDATE webhook_subscriptions
             SET position = ${toPosition}, lease_expires_at = ${leaseUntil.toISOString()}::timestamptz
           WHERE id = ${subscription.id} AND lease_owner = ${owner} AND position = ${subscription.position}
          RETURNING id`,
    );
    return rows.length > 0;
  }

  /** Disables the subscription without an attempt (it cannot be delivered as it stands). */
  @GenerateSql({
    name: 'a leased subscription',
    params: [A_LEASED_SUBSCRIPTION, 'instance-1', 'the URL is refused'],
  })
  async disable(subscription: LeasedSubscription, owner: string, reason: string): Promise<void> {
    await this.database.db.execute(
      sql`UPDATE webhook_subscriptions SET status = 'DISABLED', disabled_reason = ${reason}
           WHERE id = ${subscription.id} AND lease_owner = ${owner} AND position = ${subscription.position}`,
    );
  }

  /** One statement a shape, prepared: PostgreSQL plans it once per connection, not per delivery. */
  private prepareNextChange(shape: SubscriptionShape): PreparedRead<NextChangeRow> {
    const query = this.database.db
      .select({
        active: sql<boolean>`EXISTS (SELECT FROM webhook_subscriptions WHERE id = ${param.id}::uuid AND status = 'ACTIVE')`,
        lastPosition: sql<string>`h.last_position::text`,
        prunedThrough: sql<string>`h.pruned_through::text`,
        position: sql<string | null>`c.position::text`,
        cursor: sql<string | null>`change_cursor(c.position)`,
        kind: sql<ChangeKind | null>`c.kind`,
        recordedAtMs: sql<string | null>`${sqlEpochMilliseconds(sql`c.recorded_at`)}`,
        body: sql<string | null>`c.body`,
      })
      .from(sql`change_feed_head h LEFT JOIN LATERAL (${nextVisible(shape)}) AS c ON true`);
    return prepared('webhook_next_change', query);
  }

  /**
   * Writes an attempt's outcome and its row in the deliveries log in one statement (so one
   * transaction, with no round trips to open and commit it): the position moves only with the row
   * of the 2xx that moved it. Nothing is written (false) when this instance no longer holds the
   * subscription at the position it started from.
   */
  @GenerateSql({
    name: 'a failed attempt',
    params: [
      {
        subscriptionId: DummyValue.UUID,
        leaseOwner: 'instance-1',
        fromPosition: 0,
        advanceTo: null,
        failedAttempts: 1,
        nextAttemptAt: new Date('2026-03-01T06:00:30Z'),
        disabledReason: null,
        leaseUntil: null,
        log: A_FAILED_ATTEMPT,
      },
    ],
  })
  async record(result: AttemptResult): Promise<boolean> {
    const disabled = result.disabledReason;
    const log = result.log;
    const logged = await rowsOf<{ id: string }>(
      this.database.db,
      sql`WITH updated AS (
            UPDATE webhook_subscriptions
               SET position = coalesce(${result.advanceTo}::bigint, position),
                   failed_attempts = ${result.failedAttempts},
                   next_attempt_at = ${result.nextAttemptAt?.toISOString() ?? null}::timestamptz,
                   status = CASE WHEN ${disabled}::text IS NULL THEN status ELSE 'DISABLED' END,
                   disabled_reason = coalesce(${disabled}::text, disabled_reason),
                   lease_owner = CASE WHEN ${result.leaseUntil === null} THEN NULL ELSE lease_owner END,
                   lease_expires_at = ${result.leaseUntil?.toISOString() ?? null}::timestamptz
             WHERE id = ${result.subscriptionId} AND lease_owner = ${result.leaseOwner}
               AND position = ${result.fromPosition}
            RETURNING id)
          INSERT INTO webhook_deliveries (subscription_id, message_id, kind, attempt, attempted_at,
                                          response_status, duration_ms, error, next_attempt_at)
          SELECT id, ${log.messageId}::text, ${log.kind}::text, ${log.attempt}::int,
                 ${log.attemptedAt.toISOString()}::timestamptz,
                 ${log.responseStatus}::int, ${log.durationMs}::int, ${log.error}::text,
                 ${log.nextAttemptAt?.toISOString() ?? null}::timestamptz
            FROM updated
          RETURNING id`,
    );
    return logged.length > 0;
  }

  /** A subscription's URL and live secrets, whatever its status or lease; null once it is deleted. */
  @GenerateSql({ name: 'a subscription', params: [DummyValue.UUID, DummyValue.INSTANT] })
  async signingTarget(subscriptionId: string, now: Date): Promise<SigningTarget | null> {
    const [row] = await rowsOf<{ url: string; secret: string; retired_secrets: string[] }>(
      this.database.db,
      sql`SELECT s.url, s.secret,
                 ARRAY(SELECT r.secret FROM webhook_retired_secrets r
                        WHERE r.subscription_id = s.id AND r.expires_at > ${now.toISOString()}::timestamptz
                        ORDER BY r.expires_at DESC) AS retired_secrets
            FROM webhook_subscriptions s WHERE s.id = ${subscriptionId}`,
    );
    return row === undefined
      ? null
      : { url: row.url, secret: row.secret, retiredSecrets: row.retired_secrets };
  }

  /** The change at `position` as the feed stores it; null when retention deleted it. */
  @GenerateSql({ name: 'a position', params: [1] })
  async changeAt(position: number): Promise<PendingChange | null> {
    const [row] = await rowsOf<{ cursor: string; kind: ChangeKind; recorded_at_ms: string; body: string }>(
      this.database.db,
      sql`SELECT change_cursor(position) AS cursor, kind,
                 ${sqlEpochMilliseconds(sql`recorded_at`)} AS recorded_at_ms, body
            FROM process_changes WHERE position = ${position}`,
    );
    return row === undefined
      ? null
      : {
          position,
          cursor: row.cursor,
          kind: row.kind,
          recordedAtMs: Number(row.recorded_at_ms),
          json: row.body,
        };
  }

  /** Logs an attempt made outside the feed's order (a test message, a resend): the position stays. */
  @GenerateSql({
    name: 'a test message',
    params: [DummyValue.UUID, { ...A_FAILED_ATTEMPT, nextAttemptAt: null }],
  })
  async logOutOfOrder(subscriptionId: string, log: AttemptLog): Promise<void> {
    await this.database.db.execute(
      sql`INSERT INTO webhook_deliveries (subscription_id, message_id, kind, attempt, attempted_at,
                                          response_status, duration_ms, error, next_attempt_at)
          SELECT id, ${log.messageId}::text, ${log.kind}::text, ${log.attempt}::int,
                 ${log.attemptedAt.toISOString()}::timestamptz,
                 ${log.responseStatus}::int, ${log.durationMs}::int, ${log.error}::text, NULL
            FROM webhook_subscriptions WHERE id = ${subscriptionId}`,
    );
  }

  /** Gives the lease back, so that any instance may take the subscription when it is next due. */
  @GenerateSql({ name: 'a lease', params: [DummyValue.UUID, 'instance-1'] })
  async release(subscriptionId: string, owner: string): Promise<void> {
    await this.database.db.execute(
      sql`UPDATE webhook_subscriptions SET lease_owner = NULL, lease_expires_at = NULL
           WHERE id = ${subscriptionId} AND lease_owner = ${owner}`,
    );
  }

  /** Deletes up to `batch` attempts made before `instant`, oldest first; returns how many went. */
  @GenerateSql({ name: 'a batch', params: [new Date('2000-01-01T00:00:00Z'), 5000] })
  async pruneDeliveriesBefore(instant: Date, batch: number): Promise<number> {
    const [row] = await rowsOf<{ deleted: number }>(
      this.database.db,
      sql`WITH doomed AS (
            DELETE FROM webhook_deliveries WHERE id IN (
              SELECT id FROM webhook_deliveries WHERE attempted_at < ${instant.toISOString()}::timestamptz
               ORDER BY attempted_at LIMIT ${batch})
            RETURNING id)
          SELECT count(*)::int AS deleted FROM doomed`,
    );
    return row?.deleted ?? 0;
  }

  /** How many subscriptions there are in each status. */
  @GenerateSql({ name: 'every status', params: [] })
  async countByStatus(): Promise<Record<WebhookStatus, number>> {
    const rows = await rowsOf<{ status: WebhookStatus; count: number }>(
      this.database.db,
      sql`SELECT status, count(*)::int AS count FROM webhook_subscriptions GROUP BY status`,
    );
    const counts = Object.fromEntries(WEBHOOK_STATUSES.map((status) => [status, 0])) as Record<
      WebhookStatus,
      number
    >;
    for (const row of rows) counts[row.status] = row.count;
    return counts;
  }
}

/**
 * The subscription's next visible change, by the simplest statement its shape allows: a customer
 * user of one customer, the usual subscriber, reads one index range; several customers, one
 * range each, merged by position.
 */
function nextVisible(shape: SubscriptionShape): SQL {
  const columns = sql.raw('position, kind, recorded_at, body');
  const kindMatches =
    shape.kinds === 'every'
      ? sql.empty()
      : sql` AND kind IN (SELECT json_array_elements_text(${param.kinds}::json))`;
  if (shape.customers === 'every') {
    return sql`SELECT ${columns} FROM process_changes
                WHERE position > ${param.after}::bigint${kindMatches} ORDER BY position LIMIT 1`;
  }
  if (shape.customers === 'one') {
    return sql`SELECT ${columns} FROM process_changes
                WHERE customer_id = ${param.customer}::text AND position > ${param.after}::bigint${kindMatches}
                ORDER BY position LIMIT 1`;
  }
  return sql`SELECT pc.* FROM json_array_elements_text(${param.customers}::json) AS v(customer_id)
              CROSS JOIN LATERAL (
                SELECT ${columns} FROM process_changes
                 WHERE customer_id = v.customer_id AND position > ${param.after}::bigint${kindMatches}
                 ORDER BY position LIMIT 1) AS pc
              ORDER BY pc.position LIMIT 1`;
}
