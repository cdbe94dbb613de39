import { Injectable } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import type { TokenSubject } from './token-subject.js';

/** Distinct tokens remembered: a few hundred bytes each. */
const MAX_TOKENS = 10_000;

interface Verified {
  subject: TokenSubject;
  expiresAtS: number;
}

/**
 * Bearer tokens the JWT strategy has verified in full (signature, algorithm, `typ`, issuer,
 * audience, `exp`, subject), remembered until they expire: a client sends the same token on every
 * request, and verifying it again each time (passport, jsonwebtoken, an HMAC, two JSON parses) was
 * a tenth of what a feed page cost. Only what passed every check is remembered, keyed by the whole
 * token, so nothing can be added to it but by presenting a valid token.
 */
@Injectable()
export class VerifiedTokens {
  private readonly verified = new LRUCache<string, Verified>({ max: MAX_TOKENS });

  remember(token: string, subject: TokenSubject, expiresAtS: number): void {
    this.verified.set(token, { subject, expiresAtS });
  }

  /** The subject of a remembered token, while it has not expired at `nowMs` (no leeway). */
  subjectOf(token: string, nowMs: number): TokenSubject | undefined {
    const verified = this.verified.get(token);
    if (verified === undefined) return undefined;
    if (Math.floor(nowMs / 1000) >= verified.expiresAtS) {
      this.verified.delete(token);
      return undefined;
    }
    return verified.subject;
  }
}
