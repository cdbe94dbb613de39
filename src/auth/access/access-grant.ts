import type { Request } from 'express';
import { SCOPE_NAMES, type Scope } from '../../domain/scopes.js';

/** What the request's token may do, beside who it acts for (`request.user`). */
export interface AccessGrant {
  scopes: ReadonlySet<Scope>;
  /** The client application the token was issued to; null for a user's own token. */
  clientId: string | null;
}

/** A user's own token: every scope. */
export const USER_GRANT: AccessGrant = { scopes: new Set(SCOPE_NAMES), clientId: null };

export type GrantedRequest = Request & { accessGrant?: AccessGrant };
