import { jest } from '@jest/globals';
import { setTimeout as sleep } from 'node:timers/promises';
import type { UserRecord, UsersRepository } from './users.repository.js';
import { USER_ACCESS_TTL_MS, UserAccessService } from './user-access.service.js';

const ACME: UserRecord = {
  id: '6f1c1f8e-3c51-4a43-9c6a-1d2b0f7d9a10',
  username: 'acme',
  passwordHash: '$argon2id$secret',
  role: 'customer',
  active: true,
  customerIds: ['acme'],
};

class FakeUsers {
  readonly byId = new Map<string, UserRecord>([[ACME.id, ACME]]);
  lookups = 0;

  findById(id: string): Promise<UserRecord | null> {
    this.lookups++;
    return Promise.resolve(this.byId.get(id) ?? null);
  }
}

describe(UserAccessService.name, () => {
  let users: FakeUsers;
  let sut: UserAccessService;

  beforeEach(() => {
    users = new FakeUsers();
    sut = new UserAccessService(users as unknown as UsersRepository);
  });

  afterEach(() => {
    jest.restoreAllMocks();
  });

  it('resolves an active user to who it is and what it may see, without its password hash', async () => {
    expect(await sut.resolve(ACME.id)).toEqual({
      id: ACME.id,
      username: 'acme',
      role: 'customer',
      customerIds: ['acme'],
    });
  });

  it('answers the same user from its cache without asking the database again', async () => {
    await sut.resolve(ACME.id);
    await sut.resolve(ACME.id);

    expect(users.lookups).toBe(1);
  });

  it.each([
    ['removed', undefined],
    ['disabled', { ...ACME, active: false }],
  ])('refuses a %s user, and remembers that too', async (_case, record) => {
    if (record === undefined) users.byId.delete(ACME.id);
    else users.byId.set(ACME.id, record);

    expect(await sut.resolve(ACME.id)).toBeNull();
    expect(await sut.resolve(ACME.id)).toBeNull();
    expect(users.lookups).toBe(1);
  });

  it('sees a user disabled after being cached once the cache entry expires, well within 60 s', async () => {
    const now = jest.spyOn(performance, 'now');
    const start = performance.now();
    now.mockReturnValue(start);
    await sut.resolve(ACME.id);
    users.byId.set(ACME.id, { ...ACME, active: false });

    now.mockReturnValue(start + USER_ACCESS_TTL_MS + 1);
    await sleep(5); // lru-cache reads the clock at most once a millisecond

    expect(await sut.resolve(ACME.id)).toBeNull();
    expect(USER_ACCESS_TTL_MS).toBeLessThanOrEqual(60_000);
  });
});
