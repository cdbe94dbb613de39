import { Injectable } from '@nestjs/common';
import { and, eq, isNull } from 'drizzle-orm';
import { DatabaseService } from '../../database/database.service.js';
import { DummyValue, GenerateSql } from '../../database/generate-sql.decorator.js';
import { refreshTokens, signIns } from '../../database/schema.js';

/**
 * A spent refresh token presented again this soon after its first use is a second tab or a retry
 * after a lost answer, not a thief: it gets a new pair of the same sign-in.
 */
export const CONCURRENT_REFRESH_GRACE_MS = 10_000;

/** What spending a refresh token came to. */
export type Rotation =
  | { outcome: 'rotated'; userId: string; signInId: string; expiresAt: Date }
  /** Spent before, past the grace: the sign-in it belongs to is ended, since only a thief replays one. */
  | { outcome: 'reused'; signInId: string }
  /** Unknown, or of a sign-in that has ended or expired. */
  | { outcome: 'refused' };

/** Sign-ins and their refresh tokens, which are stored as hashes only. */
@Injectable()
export class SignInsRepository {
  constructor(private readonly database: DatabaseService) {}

  /**
   * Starts a sign-in that lasts until `expiresAt` at the latest, with its first refresh token;
   * answers the sign-in's id.
   */
  @GenerateSql({
    name: 'with its first refresh token',
    params: [DummyValue.USER_ID, 'token-hash-1', DummyValue.INSTANT, new Date('2026-03-31T06:00:00Z')],
  })
  async start(userId: string, tokenHash: string, now: Date, expiresAt: Date): Promise<string> {
    return this.database.db.transaction(async (tx) => {
      const [signIn] = await tx
        .insert(signIns)
        .values({ userId, startedAt: now.toISOString(), expiresAt: expiresAt.toISOString() })
        .returning({ id: signIns.id });
      await tx.insert(refreshTokens).values({ tokenHash, signInId: signIn!.id, issuedAt: now.toISOString() });
      return signIn!.id;
    });
  }

  /**
   * Spends the token `tokenHash` for `nextHash`, in one transaction: of two requests presenting
   * the same token, one rotates and the other waits for it, then sees a spent token: within
   * {@link CONCURRENT_REFRESH_GRACE_MS} of its first use it gets a pair of the same sign-in too;
   * later it is a reuse.
   */
  @GenerateSql(
    { name: 'a fresh token', params: ['token-hash-1', 'token-hash-2', DummyValue.INSTANT] },
    { name: 'a token spent just now', params: ['token-hash-1', 'token-hash-3', DummyValue.INSTANT] },
    { name: 'an unknown token', params: ['unknown-hash', 'token-hash-4', DummyValue.INSTANT] },
  )
  rotate(tokenHash: string, nextHash: string, now: Date): Promise<Rotation> {
    return this.database.db.transaction(async (tx): Promise<Rotation> => {
      const [spent] = await tx
        .update(refreshTokens)
        .set({ usedAt: now.toISOString() })
        .where(and(eq(refreshTokens.tokenHash, tokenHash), isNull(refreshTokens.usedAt)))
        .returning({ signInId: refreshTokens.signInId });
      let signInId = spent?.signInId;
      if (signInId === undefined) {
        const [known] = await tx
          .select({ signInId: refreshTokens.signInId, usedAt: refreshTokens.usedAt })
          .from(refreshTokens)
          .where(eq(refreshTokens.tokenHash, tokenHash));
        if (known === undefined) return { outcome: 'refused' };
        if (now.getTime() - new Date(known.usedAt!).getTime() > CONCURRENT_REFRESH_GRACE_MS) {
          await this.end(tx, known.signInId, now);
          return { outcome: 'reused', signInId: known.signInId };
        }
        signInId = known.signInId;
      }
      const [signIn] = await tx
        .select({ userId: signIns.userId, expiresAt: signIns.expiresAt, endedAt: signIns.endedAt })
        .from(signIns)
        .where(eq(signIns.id, signInId));
      const expiresAt = new Date(signIn!.expiresAt);
      if (signIn!.endedAt !== null || expiresAt <= now) return { outcome: 'refused' };
      await tx.insert(refreshTokens).values({ tokenHash: nextHash, signInId, issuedAt: now.toISOString() });
      return { outcome: 'rotated', userId: signIn!.userId, signInId, expiresAt };
    });
  }

  /** Ends the sign-in of the token `tokenHash`; answers its id, or null when no sign-in has such a token. */
  @GenerateSql({ name: 'a known token', params: ['token-hash-2', DummyValue.INSTANT] })
  async endByToken(tokenHash: string, now: Date): Promise<string | null> {
    return this.database.db.transaction(async (tx) => {
      const [known] = await tx
        .select({ signInId: refreshTokens.signInId })
        .from(refreshTokens)
        .where(eq(refreshTokens.tokenHash, tokenHash));
      if (known === undefined) return null;
      await this.end(tx, known.signInId, now);
      return known.signInId;
    });
  }

  /** Whether the sign-in was ended (by a logout or a reuse); an unknown one counts as ended. */
  @GenerateSql({ name: 'a sign-in', params: [DummyValue.UUID] })
  async hasEnded(signInId: string): Promise<boolean> {
    const [row] = await this.database.db
      .select({ endedAt: signIns.endedAt })
      .from(signIns)
      .where(eq(signIns.id, signInId));
    return row === undefined || row.endedAt !== null;
  }

  private async end(
    tx: Parameters<Parameters<DatabaseService['db']['transaction']>[0]>[0],
    signInId: string,
    now: Date,
  ): Promise<void> {
    await tx
      .update(signIns)
      .set({ endedAt: now.toISOString() })
      .where(and(eq(signIns.id, signInId), isNull(signIns.endedAt)));
  }
}
