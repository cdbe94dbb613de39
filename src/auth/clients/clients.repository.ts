import { Injectable } from '@nestjs/common';
import { and, eq, sql } from 'drizzle-orm';
import { DatabaseService } from '../../database/database.service.js';
import { DummyValue, GenerateSql } from '../../database/generate-sql.decorator.js';
import { clientApplications, users } from '../../database/schema.js';
import type { Scope } from '../../domain/scopes.js';
import type { ClientApplication, ClientCredentialsRecord, ClientPrincipal } from './client-application.js';

export interface NewClient {
  ownerId: string;
  clientId: string;
  name: string;
  scopes: Scope[];
  customerIds: string[] | null;
  secretHash: string;
  now: Date;
}

export interface ClientChanges {
  name?: string;
  scopes?: Scope[];
}

type ClientRow = typeof clientApplications.$inferSelect;

/** Client applications; every statement an owner makes is scoped to that owner. */
@Injectable()
export class ClientsRepository {
  constructor(private readonly database: DatabaseService) {}

  /**
   * Inserts the client unless the owner already has `limit`; null then. The owner's user row is
   * locked meanwhile, so that concurrent creations count one after the other.
   */
  @GenerateSql({
    name: 'under the limit',
    params: [
      10,
      {
        ownerId: DummyValue.USER_ID,
        clientId: 'snapshot-client',
        name: 'ERP',
        scopes: ['processes:read'],
        customerIds: null,
        secretHash: 'hash',
        now: DummyValue.INSTANT,
      },
    ],
  })
  async createWithin(limit: number, client: NewClient): Promise<ClientApplication | null> {
    return this.database.db.transaction(async (tx) => {
      await tx.select({ id: users.id }).from(users).where(eq(users.id, client.ownerId)).for('update');
      const [owned] = await tx
        .select({ count: sql<number>`count(*)::int` })
        .from(clientApplications)
        .where(eq(clientApplications.ownerId, client.ownerId));
      if ((owned?.count ?? 0) >= limit) return null;
      const now = client.now.toISOString();
      const [row] = await tx
        .insert(clientApplications)
        .values({
          ownerId: client.ownerId,
          clientId: client.clientId,
          name: client.name,
          scopes: client.scopes,
          customerIds: client.customerIds,
          secretHash: client.secretHash,
          createdAt: now,
          updatedAt: now,
        })
        .returning();
      return toClient(row!);
    });
  }

  @GenerateSql({ name: 'an owner', params: [DummyValue.USER_ID] })
  async listOwned(ownerId: string): Promise<ClientApplication[]> {
    const rows = await this.database.db
      .select()
      .from(clientApplications)
      .where(eq(clientApplications.ownerId, ownerId))
      .orderBy(clientApplications.createdAt, clientApplications.id);
    return rows.map(toClient);
  }

  @GenerateSql({ name: "an owner's", params: [DummyValue.UUID, DummyValue.USER_ID] })
  async findOwned(id: string, ownerId: string): Promise<ClientApplication | null> {
    const [row] = await this.database.db.select().from(clientApplications).where(owned(id, ownerId));
    return row === undefined ? null : toClient(row);
  }

  @GenerateSql({
    name: 'a new name',
    params: [DummyValue.UUID, DummyValue.USER_ID, { name: 'ERP 2' }, DummyValue.INSTANT],
  })
  async update(
    id: string,
    ownerId: string,
    changes: ClientChanges,
    now: Date,
  ): Promise<ClientApplication | null> {
    const [row] = await this.database.db
      .update(clientApplications)
      .set({ ...changes, updatedAt: now.toISOString() })
      .where(owned(id, ownerId))
      .returning();
    return row === undefined ? null : toClient(row);
  }

  @GenerateSql({ name: "an owner's", params: [DummyValue.UUID, DummyValue.USER_ID] })
  async delete(id: string, ownerId: string): Promise<boolean> {
    const rows = await this.database.db
      .delete(clientApplications)
      .where(owned(id, ownerId))
      .returning({ id: clientApplications.id });
    return rows.length > 0;
  }

  /** Authenticates with `secretHash` from now on, and with the one it replaces until `previousExpiresAt`. */
  @GenerateSql({
    name: 'keeping the previous one a while',
    params: [
      DummyValue.UUID,
      DummyValue.USER_ID,
      'hash-2',
      new Date('2026-03-02T06:00:00Z'),
      DummyValue.INSTANT,
    ],
  })
  async rotateSecret(
    id: string,
    ownerId: string,
    secretHash: string,
    previousExpiresAt: Date,
    now: Date,
  ): Promise<boolean> {
    const rows = await this.database.db
      .update(clientApplications)
      .set({
        previousSecretHash: sql`${clientApplications.secretHash}`,
        previousSecretExpiresAt: previousExpiresAt.toISOString(),
        secretHash,
        updatedAt: now.toISOString(),
      })
      .where(owned(id, ownerId))
      .returning({ id: clientApplications.id });
    return rows.length > 0;
  }

  /** What the token endpoint checks a client's credentials against; null for an unknown client id. */
  @GenerateSql({ name: 'a client id', params: ['snapshot-client'] })
  async credentialsOf(clientId: string): Promise<ClientCredentialsRecord | null> {
    const [row] = await this.database.db
      .select({
        clientId: clientApplications.clientId,
        scopes: clientApplications.scopes,
        secretHash: clientApplications.secretHash,
        previousSecretHash: clientApplications.previousSecretHash,
        previousSecretExpiresAt: clientApplications.previousSecretExpiresAt,
        ownerActive: users.active,
      })
      .from(clientApplications)
      .innerJoin(users, eq(users.id, clientApplications.ownerId))
      .where(eq(clientApplications.clientId, clientId));
    if (row === undefined) return null;
    return {
      ...row,
      scopes: row.scopes as Scope[],
      previousSecretExpiresAt:
        row.previousSecretExpiresAt === null ? null : new Date(row.previousSecretExpiresAt),
    };
  }

  /** What a client's access token acts as; null once the client is deleted. */
  @GenerateSql({ name: 'a client id', params: ['snapshot-client'] })
  async principalOf(clientId: string): Promise<ClientPrincipal | null> {
    const [row] = await this.database.db
      .select({
        ownerId: clientApplications.ownerId,
        ownerUsername: users.username,
        ownerActive: users.active,
        scopes: clientApplications.scopes,
        customerIds: clientApplications.customerIds,
      })
      .from(clientApplications)
      .innerJoin(users, eq(users.id, clientApplications.ownerId))
      .where(eq(clientApplications.clientId, clientId));
    return row === undefined ? null : { ...row, scopes: row.scopes as Scope[] };
  }

  @GenerateSql({ name: 'a client id', params: ['snapshot-client', DummyValue.INSTANT] })
  async markUsed(clientId: string, now: Date): Promise<void> {
    await this.database.db
      .update(clientApplications)
      .set({ lastUsedAt: now.toISOString() })
      .where(eq(clientApplications.clientId, clientId));
  }
}

function owned(id: string, ownerId: string) {
  return and(eq(clientApplications.id, id), eq(clientApplications.ownerId, ownerId));
}

function toClient(row: ClientRow): ClientApplication {
  return {
    id: row.id,
    ownerId: row.ownerId,
    clientId: row.clientId,
    name: row.name,
    scopes: row.scopes as Scope[],
    customerIds: row.customerIds,
    createdAt: new Date(row.createdAt),
    updatedAt: new Date(row.updatedAt),
    lastUsedAt: row.lastUsedAt === null ? null : new Date(row.lastUsedAt),
  };
}
