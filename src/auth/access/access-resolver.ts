import { Injectable } from '@nestjs/common';
import type { AuthenticatedUser } from '../../domain/authenticated-user.js';
import { ClientAccessService } from '../clients/client-access.service.js';
import type { TokenSubject } from '../jwt/token-subject.js';
import { SignInStatus } from '../sign-ins/sign-in-status.service.js';
import { UserAccessService } from '../users/user-access.service.js';
import { USER_GRANT, type AccessGrant } from './access-grant.js';

export interface ResolvedAccess {
  user: AuthenticatedUser;
  grant: AccessGrant;
}

/**
 * Resolves a verified token's subject, on every request, to whom it acts for and what it may do;
 * null once its sign-in has ended, its user is disabled or removed, or its client is deleted.
 */
@Injectable()
export class AccessResolver {
  constructor(
    private readonly users: UserAccessService,
    private readonly signIns: SignInStatus,
    private readonly clients: ClientAccessService,
  ) {}

  async resolve(subject: TokenSubject): Promise<ResolvedAccess | null> {
    if (subject.kind === 'client') {
      const client = await this.clients.resolve(subject.clientId);
      if (client === null) return null;
      // A client re-scoped since the token was issued keeps only what it still has.
      const scopes = new Set(subject.scopes.filter((scope) => client.scopes.has(scope)));
      return { user: client.user, grant: { scopes, clientId: subject.clientId } };
    }
    if (subject.signInId !== null && (await this.signIns.hasEnded(subject.signInId))) return null;
    const user = await this.users.resolve(subject.userId);
    return user === null ? null : { user, grant: USER_GRANT };
  }
}
