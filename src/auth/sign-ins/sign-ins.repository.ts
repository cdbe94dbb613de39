import { Injectable } from '@nestjs/common';
import { and, eq, isNull } from 'drizzle-orm';
import { DatabaseService } from '../../database/database.service.js';
import { refreshTokens, signIns } from '../../database/schema.js';

/** What spending a refresh token came to. */
export type Rotation =
  | { outcome: 'rotated'; userId: string; expiresAt: Date }
  /** Spent before: the sign-in it belongs to is ended, since only a thief replays one. */
  | { outcome: 'reused' }
  /** Unknown, or of a sign-in that has ended or expired. */
  | { outcome: 'refused' };

/** Sign-ins and their refresh tokens, which are stored as hashes only. */
@Injectable()
export class SignInsRepository {
  constructor(private readonly database: DatabaseService) {}

  /** Starts a sign-in that lasts until `expiresAt` at the latest, with its first refresh token. */
  async start(userId: string, tokenHash: string, now: Date, expiresAt: Date): Promise<void> {
    await this.database.db.transaction(async (tx) => {
      const [signIn] = await tx
        .insert(signIns)
        .values({ userId, startedAt: now.toISOString(), expiresAt: expiresAt.toISOString() })
        .returning({ id: signIns.id });
      await tx.insert(refreshTokens).values({ tokenHash, signInId: signIn!.id, issuedAt: now.toISOString() });
    });
  }

  /**
   * Spends the token `tokenHash` for `nextHash`, in one transaction: of two requests presenting
   * the same token, one rotates and the other is a reuse.
   */
  rotate(tokenHash: string, nextHash: string, now: Date): Promise<Rotation> {
    return this.database.db.transaction(async (tx): Promise<Rotation> => {
      const [spent] = await tx
        .update(refreshTokens)
        .set({ usedAt: now.toISOString() })
        .where(and(eq(refreshTokens.tokenHash, tokenHash), isNull(refreshTokens.usedAt)))
        .returning({ signInId: refreshTokens.signInId });
      if (spent === undefined) {
        const [known] = await tx
          .select({ signInId: refreshTokens.signInId })
          .from(refreshTokens)
          .where(eq(refreshTokens.tokenHash, tokenHash));
        if (known === undefined) return { outcome: 'refused' };
        await this.end(tx, known.signInId, now);
        return { outcome: 'reused' };
      }
      const [signIn] = await tx
        .select({ userId: signIns.userId, expiresAt: signIns.expiresAt, endedAt: signIns.endedAt })
        .from(signIns)
        .where(eq(signIns.id, spent.signInId));
      const expiresAt = new Date(signIn!.expiresAt);
      if (signIn!.endedAt !== null || expiresAt <= now) return { outcome: 'refused' };
      await tx
        .insert(refreshTokens)
        .values({ tokenHash: nextHash, signInId: spent.signInId, issuedAt: now.toISOString() });
      return { outcome: 'rotated', userId: signIn!.userId, expiresAt };
    });
  }

  /** Ends the sign-in of the token `tokenHash`; false when no sign-in has such a token. */
  async endByToken(tokenHash: string, now: Date): Promise<boolean> {
    return this.database.db.transaction(async (tx) => {
      const [known] = await tx
        .select({ signInId: refreshTokens.signInId })
        .from(refreshTokens)
        .where(eq(refreshTokens.tokenHash, tokenHash));
      if (known === undefined) return false;
      await this.end(tx, known.signInId, now);
      return true;
    });
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
