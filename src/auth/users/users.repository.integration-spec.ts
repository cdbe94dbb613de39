import { connectTestDatabase, TEST_DATABASE_TARGETS } from '../../testing/test-database.js';
import type { DatabaseService } from '../../database/database.service.js';
import { customers, users } from '../../database/schema.js';
import { UnknownCustomersError, UsersRepository } from './users.repository.js';

describe.each(TEST_DATABASE_TARGETS)(`${UsersRepository.name} on %s`, (target) => {
  let database: DatabaseService;
  let dispose: () => Promise<void>;
  let sut: UsersRepository;

  beforeAll(async () => {
    ({ database, dispose } = await connectTestDatabase(target));
    await database.db.insert(customers).values([
      { id: 'acme', name: 'ACME Importadora Ltda' },
      { id: 'globex', name: 'Globex Exportadora SA' },
    ]);
    sut = new UsersRepository(database);
  });

  afterAll(() => dispose());

  beforeEach(async () => {
    await database.db.delete(users);
  });

  it('creates a customer user with its customers and finds it by name and by id', async () => {
    const created = await sut.create({
      username: 'acme',
      passwordHash: 'hash-1',
      role: 'customer',
      customerIds: ['globex', 'acme'],
    });

    const expected = {
      id: created.id,
      username: 'acme',
      passwordHash: 'hash-1',
      role: 'customer',
      active: true,
      customerIds: ['acme', 'globex'],
    };
    expect(created.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(await sut.findByUsername('acme')).toEqual(expected);
    expect(await sut.findById(created.id)).toEqual(expected);
  });

  it('gives a staff user no customers', async () => {
    await sut.create({ username: 'operator', passwordHash: 'h', role: 'staff', customerIds: [] });

    expect(await sut.findByUsername('operator')).toMatchObject({ role: 'staff', customerIds: [] });
  });

  it('answers null for an unknown user name or id', async () => {
    expect(await sut.findByUsername('nobody')).toBeNull();
    expect(await sut.findById('00000000-0000-4000-8000-000000000000')).toBeNull();
  });

  it('refuses unknown customers, names them, and creates nothing', async () => {
    const attempt = sut.create({
      username: 'mixed',
      passwordHash: 'h',
      role: 'customer',
      customerIds: ['acme', 'initech', 'umbrella'],
    });

    await expect(attempt).rejects.toThrow(UnknownCustomersError);
    await expect(attempt).rejects.toMatchObject({ customerIds: ['initech', 'umbrella'] });
    expect(await sut.findByUsername('mixed')).toBeNull();
  });

  it('refuses a second user with the same name', async () => {
    await sut.create({ username: 'acme', passwordHash: 'h', role: 'customer', customerIds: ['acme'] });

    await expect(
      sut.create({ username: 'acme', passwordHash: 'h2', role: 'staff', customerIds: [] }),
    ).rejects.toThrow();
    expect(await sut.list()).toHaveLength(1);
  });

  it('lists users ordered by name', async () => {
    for (const username of ['globex', 'acme', 'operator']) {
      await sut.create({ username, passwordHash: 'h', role: 'staff', customerIds: [] });
    }

    expect((await sut.list()).map((user) => user.username)).toEqual(['acme', 'globex', 'operator']);
  });

  it('updates the password hash and the active flag, and reports an unknown user', async () => {
    await sut.create({ username: 'acme', passwordHash: 'old', role: 'customer', customerIds: ['acme'] });

    expect(await sut.update('acme', { passwordHash: 'new' })).toBe(true);
    expect(await sut.update('acme', { active: false })).toBe(true);
    expect(await sut.update('nobody', { active: false })).toBe(false);
    expect(await sut.findByUsername('acme')).toMatchObject({ passwordHash: 'new', active: false });
  });
});
