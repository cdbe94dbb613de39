import { Injectable } from '@nestjs/common';
import { asc, eq, inArray, sql } from 'drizzle-orm';
import { DatabaseService } from '../../database/database.service.js';
import { DummyValue, GenerateSql } from '../../database/generate-sql.decorator.js';
import { customers, userCustomers, users } from '../../database/schema.js';
import type { UserRole } from '../../domain/authenticated-user.js';

export interface UserRecord {
  id: string;
  username: string;
  passwordHash: string;
  role: UserRole;
  active: boolean;
  customerIds: string[];
}

export interface NewUser {
  username: string;
  passwordHash: string;
  role: UserRole;
  customerIds: string[];
}

export class UnknownCustomersError extends Error {
  constructor(readonly customerIds: string[]) {
    super(`Unknown customer ids: ${customerIds.join(', ')}`);
  }
}

@Injectable()
export class UsersRepository {
  constructor(private readonly database: DatabaseService) {}

  @GenerateSql({ name: 'a user name', params: [DummyValue.USERNAME] })
  findByUsername(username: string): Promise<UserRecord | null> {
    return this.findOne(eq(users.username, username));
  }

  @GenerateSql({ name: 'an id', params: [DummyValue.USER_ID] })
  findById(id: string): Promise<UserRecord | null> {
    return this.findOne(eq(users.id, id));
  }

  @GenerateSql({ name: 'everyone', params: [] })
  async list(): Promise<UserRecord[]> {
    return this.select().orderBy(asc(users.username));
  }

  @GenerateSql({
    name: "a customer's user",
    params: [
      {
        username: 'another-user',
        passwordHash: 'hash',
        role: 'customer',
        customerIds: [DummyValue.CUSTOMER_ID],
      },
    ],
  })
  async create(user: NewUser): Promise<UserRecord> {
    return this.database.db.transaction(async (tx) => {
      await assertCustomersExist(tx, user.customerIds);
      const [created] = await tx
        .insert(users)
        .values({ username: user.username, passwordHash: user.passwordHash, role: user.role })
        .returning({ id: users.id });
      const id = created!.id;
      if (user.customerIds.length > 0) {
        await tx
          .insert(userCustomers)
          .values(user.customerIds.map((customerId) => ({ userId: id, customerId })));
      }
      return { id, ...user, active: true };
    });
  }

  /** Returns false when no such user exists. */
  @GenerateSql({ name: 'a new password', params: [DummyValue.USERNAME, { passwordHash: 'hash-2' }] })
  async update(username: string, changes: { passwordHash?: string; active?: boolean }): Promise<boolean> {
    const updated = await this.database.db
      .update(users)
      .set({ ...changes, updatedAt: sql`now()` })
      .where(eq(users.username, username))
      .returning({ id: users.id });
    return updated.length > 0;
  }

  private async findOne(condition: ReturnType<typeof eq>): Promise<UserRecord | null> {
    const [user] = await this.select().where(condition);
    return user ?? null;
  }

  private select() {
    return this.database.db
      .select({
        id: users.id,
        username: users.username,
        passwordHash: users.passwordHash,
        role: users.role,
        active: users.active,
        customerIds: sql<string[]>`coalesce(
          array_agg(${userCustomers.customerId} ORDER BY ${userCustomers.customerId})
            FILTER (WHERE ${userCustomers.customerId} IS NOT NULL),
          '{}')`,
      })
      .from(users)
      .leftJoin(userCustomers, eq(userCustomers.userId, users.id))
      .groupBy(users.id)
      .$dynamic();
  }
}

type Transaction = Parameters<Parameters<DatabaseService['db']['transaction']>[0]>[0];

async function assertCustomersExist(tx: Transaction, customerIds: string[]): Promise<void> {
  if (customerIds.length === 0) return;
  const found = await tx
    .select({ id: customers.id })
    .from(customers)
    .where(inArray(customers.id, customerIds));
  const known = new Set(found.map((row) => row.id));
  const unknown = customerIds.filter((id) => !known.has(id));
  if (unknown.length > 0) throw new UnknownCustomersError(unknown);
}
