import type { AuthenticatedUser } from '../../domain/authenticated-user.js';
import type { ClientAccessService } from '../clients/client-access.service.js';
import type { SignInStatus } from '../sign-ins/sign-in-status.service.js';
import type { UserAccessService } from '../users/user-access.service.js';
import { USER_GRANT } from './access-grant.js';
import { AccessResolver } from './access-resolver.js';

const ACME: AuthenticatedUser = {
  id: '6f1c1f8e-3c51-4a43-9c6a-1d2b0f7d9a10',
  username: 'acme',
  role: 'customer',
  customerIds: ['acme'],
};
const LIVE_SIGN_IN = '1b7e0c52-9d1f-4e8a-b3c6-5a2f8d0e7c41';
const ENDED_SIGN_IN = '2c8f1d63-0e2a-4f9b-84d7-6b3a9e1f8d52';
const CLIENT_ID = 'plc_8Zq3v1Xw0bT4nYc2LmQa9d';

describe(AccessResolver.name, () => {
  let clientScopes: Set<string> | null;
  const sut = new AccessResolver(
    { resolve: (id: string) => Promise.resolve(id === ACME.id ? ACME : null) } as UserAccessService,
    { hasEnded: (id: string) => Promise.resolve(id === ENDED_SIGN_IN) } as SignInStatus,
    {
      resolve: (clientId: string) =>
        Promise.resolve(
          clientId === CLIENT_ID && clientScopes !== null ? { user: ACME, scopes: clientScopes } : null,
        ),
    } as ClientAccessService,
  );

  beforeEach(() => {
    clientScopes = new Set(['processes:read', 'changes:read']);
  });

  it('resolves a user’s token of a live sign-in to the user, with every scope', async () => {
    expect(await sut.resolve({ kind: 'user', userId: ACME.id, signInId: LIVE_SIGN_IN })).toEqual({
      user: ACME,
      grant: USER_GRANT,
    });
  });

  it('refuses a user’s token once its sign-in has ended, or its user is gone', async () => {
    expect(await sut.resolve({ kind: 'user', userId: ACME.id, signInId: ENDED_SIGN_IN })).toBeNull();
    expect(await sut.resolve({ kind: 'user', userId: LIVE_SIGN_IN, signInId: null })).toBeNull();
  });

  it('resolves a client’s token to its creator, with the scopes the token and the client still share', async () => {
    clientScopes = new Set(['processes:read']);

    const access = await sut.resolve({
      kind: 'client',
      clientId: CLIENT_ID,
      scopes: ['processes:read', 'changes:read'],
    });

    expect(access?.user).toBe(ACME);
    expect(access?.grant).toEqual({ scopes: new Set(['processes:read']), clientId: CLIENT_ID });
  });

  it('refuses a client’s token once the client is gone', async () => {
    clientScopes = null;

    expect(await sut.resolve({ kind: 'client', clientId: CLIENT_ID, scopes: ['processes:read'] })).toBeNull();
  });
});
