import { Injectable } from '@nestjs/common';
import { and, desc, eq, isNotNull, isNull, lt, sql, type SQL } from 'drizzle-orm';
import { DatabaseService } from '../database/database.service.js';
import { DummyValue, GenerateSql } from '../database/generate-sql.decorator.js';
import { users, webhookDeliveries, webhookSubscriptions, type WebhookStatus } from '../database/schema.js';
import { rowsOf } from '../database/sql-rows.js';
import type { ChangeKind } from '../domain/change-kinds.js';
import type { DeliveryLogOutcome } from './dto/webhook.query.dto.js';
import type { DeliveryKind } from './webhook-message.js';
import type { WebhookDelivery, WebhookSubscription } from './webhook-subscription.js';

export interface NewSubscription {
  ownerId: string;
  url: string;
  description: string | null;
  kinds: ChangeKind[] | null;
  customerIds: string[] | null;
  position: number;
  encryptedSecret: string;
  now: Date;
}

export interface SubscriptionChanges {
  url?: string;
  description?: string | null;
  kinds?: ChangeKind[] | null;
  status?: 'ACTIVE' | 'PAUSED';
}

type SubscriptionRow = typeof webhookSubscriptions.$inferSelect;

/** The subscriptions as their owners manage them; every statement is scoped to the owner. */
@Injectable()
export class WebhooksRepository {
  constructor(private readonly database: DatabaseService) {}

  /**
   * Inserts the subscription unless the owner already has `limit`; null then. The owner's user
   * row is locked meanwhile, so that concurrent creations count one after the other.
   */
  @GenerateSql({
    name: 'under the limit',
    params: [
      10,
      {
        ownerId: DummyValue.USER_ID,
        url: 'https://hooks.example.com/in',
        description: null,
        kinds: null,
        customerIds: null,
        position: 0,
        encryptedSecret: 'encrypted',
        now: DummyValue.INSTANT,
      },
    ],
  })
  async createWithin(limit: number, subscription: NewSubscription): Promise<WebhookSubscription | null> {
    return this.database.db.transaction(async (tx) => {
      await tx.select({ id: users.id }).from(users).where(eq(users.id, subscription.ownerId)).for('update');
      const [owned] = await tx
        .select({ count: sql<number>`count(*)::int` })
        .from(webhookSubscriptions)
        .where(eq(webhookSubscriptions.ownerId, subscription.ownerId));
      if ((owned?.count ?? 0) >= limit) return null;
      const now = subscription.now.toISOString();
      const [row] = await tx
        .insert(webhookSubscriptions)
        .values({
          ownerId: subscription.ownerId,
          url: subscription.url,
          description: subscription.description,
          kinds: subscription.kinds,
          customerIds: subscription.customerIds,
          position: subscription.position,
          secret: subscription.encryptedSecret,
          createdAt: now,
          updatedAt: now,
        })
        .returning();
      return toSubscription(row!);
    });
  }

  @GenerateSql({ name: 'an owner', params: [DummyValue.USER_ID] })
  async listOwned(ownerId: string): Promise<WebhookSubscription[]> {
    const rows = await this.database.db
      .select()
      .from(webhookSubscriptions)
      .where(eq(webhookSubscriptions.ownerId, ownerId))
      .orderBy(webhookSubscriptions.createdAt, webhookSubscriptions.id);
    return rows.map(toSubscription);
  }

  @GenerateSql({ name: "an owner's", params: [DummyValue.UUID, DummyValue.USER_ID] })
  async findOwned(id: string, ownerId: string): Promise<WebhookSubscription | null> {
    const [row] = await this.database.db.select().from(webhookSubscriptions).where(owned(id, ownerId));
    return row === undefined ? null : toSubscription(row);
  }

  /**
   * Applies the changes; `ACTIVE` on a disabled or paused subscription resumes it where it
   * stopped, its failed message due at once.
   */
  @GenerateSql(
    {
      name: 'a new URL',
      params: [
        DummyValue.UUID,
        DummyValue.USER_ID,
        { url: 'https://hooks.example.com/2' },
        DummyValue.INSTANT,
      ],
    },
    {
      name: 'resumed',
      params: [DummyValue.UUID, DummyValue.USER_ID, { status: 'ACTIVE' }, DummyValue.INSTANT],
    },
  )
  async update(
    id: string,
    ownerId: string,
    changes: SubscriptionChanges,
    now: Date,
  ): Promise<WebhookSubscription | null> {
    const resume =
      changes.status === 'ACTIVE'
        ? { failedAttempts: 0, nextAttemptAt: null, disabledReason: null }
        : changes.status === 'PAUSED'
          ? { disabledReason: null }
          : {};
    const [row] = await this.database.db
      .update(webhookSubscriptions)
      .set({ ...changes, ...resume, updatedAt: now.toISOString() })
      .where(owned(id, ownerId))
      .returning();
    return row === undefined ? null : toSubscription(row);
  }

  @GenerateSql({ name: "an owner's", params: [DummyValue.UUID, DummyValue.USER_ID] })
  async delete(id: string, ownerId: string): Promise<boolean> {
    const rows = await this.database.db
      .delete(webhookSubscriptions)
      .where(owned(id, ownerId))
      .returning({ id: webhookSubscriptions.id });
    return rows.length > 0;
  }

  /** The subscription's encrypted secret, for a rotation to keep as the previous one. */
  @GenerateSql({ name: "an owner's", params: [DummyValue.UUID, DummyValue.USER_ID] })
  async encryptedSecret(id: string, ownerId: string): Promise<string | null> {
    const [row] = await this.database.db
      .select({ secret: webhookSubscriptions.secret })
      .from(webhookSubscriptions)
      .where(owned(id, ownerId));
    return row?.secret ?? null;
  }

  /**
   * Signs with `secret` from now on; the one it replaces goes on signing until `replacedExpiresAt`,
   * beside those earlier rotations replaced that have not expired (expired ones are dropped).
   */
  @GenerateSql({
    name: 'keeping the replaced one a while',
    params: [
      DummyValue.UUID,
      DummyValue.USER_ID,
      'encrypted-2',
      new Date('2026-03-02T06:00:00Z'),
      DummyValue.INSTANT,
    ],
  })
  async rotateSecret(
    id: string,
    ownerId: string,
    secret: string,
    replacedExpiresAt: Date,
    now: Date,
  ): Promise<boolean> {
    const rows = await rowsOf<{ id: string }>(
      this.database.db,
      sql`WITH replaced AS (
            SELECT id, secret FROM webhook_subscriptions WHERE id = ${id} AND owner_id = ${ownerId} FOR UPDATE),
          retired AS (
            INSERT INTO webhook_retired_secrets (subscription_id, secret, expires_at)
            SELECT id, secret, ${replacedExpiresAt.toISOString()}::timestamptz FROM replaced),
          expired AS (
            DELETE FROM webhook_retired_secrets
             WHERE subscription_id IN (SELECT id FROM replaced) AND expires_at <= ${now.toISOString()}::timestamptz)
          UPDATE webhook_subscriptions s SET secret = ${secret}, updated_at = ${now.toISOString()}::timestamptz
            FROM replaced WHERE s.id = replaced.id
          RETURNING s.id`,
    );
    return rows.length > 0;
  }

  /**
   * Moves delivery back (or on) to just after `position`; a disabled subscription is active again,
   * a paused one stays paused.
   */
  @GenerateSql({
    name: 'from a position',
    params: [DummyValue.UUID, DummyValue.USER_ID, 0, DummyValue.INSTANT],
  })
  async replayFrom(
    id: string,
    ownerId: string,
    position: number,
    now: Date,
  ): Promise<WebhookSubscription | null> {
    const [row] = await this.database.db
      .update(webhookSubscriptions)
      .set({
        position,
        failedAttempts: 0,
        nextAttemptAt: null,
        status: sql<WebhookStatus>`CASE WHEN ${webhookSubscriptions.status} = 'DISABLED' THEN 'ACTIVE' ELSE ${webhookSubscriptions.status} END`,
        disabledReason: null,
        updatedAt: now.toISOString(),
      })
      .where(owned(id, ownerId))
      .returning();
    return row === undefined ? null : toSubscription(row);
  }

  /**
   * Up to `limit` attempts, newest first, before the attempt `beforeId` (null: the newest), of the
   * outcome asked for (null: both). An attempt succeeded when it logged no error.
   */
  @GenerateSql(
    { name: 'the newest', params: [DummyValue.UUID, 20, null, null] },
    { name: 'failed ones before an attempt', params: [DummyValue.UUID, 20, 100, 'failed'] },
  )
  deliveries(
    subscriptionId: string,
    limit: number,
    beforeId: number | null,
    outcome: DeliveryLogOutcome | null,
  ): Promise<WebhookDelivery[]> {
    const outcomeIs = { succeeded: isNull, failed: isNotNull } as const;
    return this.deliveriesWhere(
      and(
        eq(webhookDeliveries.subscriptionId, subscriptionId),
        beforeId === null ? undefined : lt(webhookDeliveries.id, beforeId),
        outcome === null ? undefined : outcomeIs[outcome](webhookDeliveries.error),
      ),
      limit,
    );
  }

  /** One attempt of the subscription's log; null when it has none of that id. */
  @GenerateSql({ name: 'one attempt', params: [DummyValue.UUID, 1] })
  async delivery(subscriptionId: string, deliveryId: number): Promise<WebhookDelivery | null> {
    const [found] = await this.deliveriesWhere(
      and(eq(webhookDeliveries.subscriptionId, subscriptionId), eq(webhookDeliveries.id, deliveryId)),
      1,
    );
    return found ?? null;
  }

  private async deliveriesWhere(condition: SQL | undefined, limit: number): Promise<WebhookDelivery[]> {
    const rows = await this.database.db
      .select()
      .from(webhookDeliveries)
      .where(condition)
      .orderBy(desc(webhookDeliveries.id))
      .limit(limit);
    return rows.map((row) => ({
      id: row.id,
      messageId: row.messageId,
      kind: row.kind as DeliveryKind,
      attempt: row.attempt,
      attemptedAt: new Date(row.attemptedAt),
      responseStatus: row.responseStatus,
      durationMs: row.durationMs,
      error: row.error,
      nextAttemptAt: row.nextAttemptAt === null ? null : new Date(row.nextAttemptAt),
    }));
  }
}

const owned = (id: string, ownerId: string) =>
  and(eq(webhookSubscriptions.id, id), eq(webhookSubscriptions.ownerId, ownerId));

function toSubscription(row: SubscriptionRow): WebhookSubscription {
  return {
    id: row.id,
    url: row.url,
    description: row.description,
    kinds: row.kinds as ChangeKind[] | null,
    status: row.status,
    disabledReason: row.disabledReason,
    position: row.position,
    failedAttempts: row.failedAttempts,
    nextAttemptAt: row.nextAttemptAt === null ? null : new Date(row.nextAttemptAt),
    createdAt: new Date(row.createdAt),
    updatedAt: new Date(row.updatedAt),
  };
}
