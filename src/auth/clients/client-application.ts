import type { Scope } from '../../domain/scopes.js';

export const CLIENTS_PER_USER = 10;

/** How long a rotated-out secret keeps working, so a system can switch at its own pace. */
export const PREVIOUS_SECRET_VALID_MS = 24 * 60 * 60 * 1000;

/** A client application as its owner manages it (never its secret). */
export interface ClientApplication {
  id: string;
  ownerId: string;
  clientId: string;
  name: string;
  scopes: Scope[];
  /** The customers its tokens see, fixed at creation; null: every customer (created by staff). */
  customerIds: string[] | null;
  createdAt: Date;
  updatedAt: Date;
  lastUsedAt: Date | null;
}

/** What the token endpoint needs to authenticate a client. */
export interface ClientCredentialsRecord {
  clientId: string;
  scopes: Scope[];
  secretHash: string;
  previousSecretHash: string | null;
  previousSecretExpiresAt: Date | null;
  ownerActive: boolean;
}

/** What a client's token acts as, as the JWT guard resolves it. */
export interface ClientPrincipal {
  ownerId: string;
  ownerUsername: string;
  ownerActive: boolean;
  scopes: Scope[];
  customerIds: string[] | null;
}
