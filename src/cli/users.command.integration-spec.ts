import { PassThrough } from 'node:stream';
import { connectTestDatabase, TEST_DATABASE_TARGETS } from '../testing/test-database.js';
import { CheapPasswordHasher } from '../testing/cheap-password-hasher.js';
import { UsersRepository } from '../auth/users/users.repository.js';
import type { DatabaseService } from '../database/database.service.js';
import { customers, users } from '../database/schema.js';
import { readFirstLine } from './password-input.js';
import { UsersCommand, UsersCommandError } from './users.command.js';

const password = (value: string) => () => Promise.resolve(value);
const neverAsked = () => Promise.reject(new Error('the password must not be asked for'));

describe.each(TEST_DATABASE_TARGETS)(`${UsersCommand.name} on %s`, (target) => {
  let database: DatabaseService;
  let dispose: () => Promise<void>;
  let repository: UsersRepository;
  const hasher = new CheapPasswordHasher();
  let sut: UsersCommand;

  beforeAll(async () => {
    ({ database, dispose } = await connectTestDatabase(target));
    await database.db.insert(customers).values([
      { id: 'acme', name: 'ACME Importadora Ltda' },
      { id: 'globex', name: 'Globex Exportadora SA' },
    ]);
    repository = new UsersRepository(database);
    sut = new UsersCommand(repository, hasher);
  });

  afterAll(() => dispose());

  beforeEach(async () => {
    await database.db.delete(users);
  });

  const storedHash = async (username: string) => (await repository.findByUsername(username))!.passwordHash;

  describe('add', () => {
    it('adds a customer user with an argon2id hash of the password', async () => {
      const output = await sut.add(
        { username: 'acme', role: 'customer', customerIds: ['acme', 'globex', 'acme'] },
        password('acme-demo-2026'),
      );

      expect(output).toEqual(['Added customer user "acme" (customers acme, globex)']);
      const user = await repository.findByUsername('acme');
      expect(user).toMatchObject({ role: 'customer', active: true, customerIds: ['acme', 'globex'] });
      expect(user!.passwordHash).toMatch(/^\$argon2id\$/);
      expect(await hasher.verify(user!.passwordHash, 'acme-demo-2026')).toBe(true);
    });

    it('adds a staff user', async () => {
      const output = await sut.add({ username: 'operator', role: 'staff', customerIds: [] }, password('pw'));

      expect(output).toEqual(['Added staff user "operator" (all customers)']);
      expect(await repository.findByUsername('operator')).toMatchObject({ role: 'staff', customerIds: [] });
    });

    it('takes the password from the first line of a stream', async () => {
      const stdin = new PassThrough();
      stdin.end('from-stdin\nsecond line\n');

      await sut.add({ username: 'piped', role: 'staff', customerIds: [] }, () => readFirstLine(stdin));

      expect(await hasher.verify(await storedHash('piped'), 'from-stdin')).toBe(true);
    });

    it('refuses unknown customers and names them', async () => {
      const attempt = sut.add(
        { username: 'acme', role: 'customer', customerIds: ['acme', 'initech'] },
        password('pw'),
      );

      await expect(attempt).rejects.toThrow(new UsersCommandError('unknown customer ids: initech'));
      expect(await repository.findByUsername('acme')).toBeNull();
    });

    it('refuses a duplicate user name before asking for a password', async () => {
      await sut.add({ username: 'acme', role: 'customer', customerIds: ['acme'] }, password('pw'));

      await expect(sut.add({ username: 'acme', role: 'staff', customerIds: [] }, neverAsked)).rejects.toThrow(
        new UsersCommandError('a user named "acme" already exists'),
      );
    });

    it('reports a name taken between its check and its insert as a duplicate', async () => {
      await sut.add({ username: 'acme', role: 'staff', customerIds: [] }, password('pw'));
      const racing = Object.assign(Object.create(repository) as UsersRepository, {
        findByUsername: () => Promise.resolve(null),
      });

      await expect(
        new UsersCommand(racing, hasher).add(
          { username: 'acme', role: 'staff', customerIds: [] },
          password('pw'),
        ),
      ).rejects.toThrow(new UsersCommandError('a user named "acme" already exists'));
    });

    it.each([
      ['a customer user without customers', { role: 'customer', customerIds: [] }, /at least one customer/],
      ['a staff user with customers', { role: 'staff', customerIds: ['acme'] }, /leave out --customers/],
      ['an empty user name', { username: '' }, /1-128 characters/],
      ['a user name over 128 characters', { username: 'u'.repeat(129) }, /1-128 characters/],
      ['a user name with surrounding spaces', { username: ' acme' }, /surrounding spaces/],
      ['a user name with a control character', { username: 'ac\tme' }, /control characters/],
    ] as const)('refuses %s before asking for a password', async (_case, override, message) => {
      const input = { username: 'someone', role: 'staff', customerIds: [], ...override } as const;

      await expect(sut.add({ ...input, customerIds: [...input.customerIds] }, neverAsked)).rejects.toThrow(
        message,
      );
      expect(await repository.list()).toEqual([]);
    });

    it('accepts a user name of exactly 128 characters, counted as characters', async () => {
      const username = 'é'.repeat(127) + '😀';

      await sut.add({ username, role: 'staff', customerIds: [] }, password('pw'));

      expect(await repository.findByUsername(username)).not.toBeNull();
    });

    it.each([
      ['empty', ''],
      ['over 1024 characters', 'p'.repeat(1025)],
    ])('refuses a password that is %s', async (_case, value) => {
      await expect(
        sut.add({ username: 'someone', role: 'staff', customerIds: [] }, password(value)),
      ).rejects.toThrow(new UsersCommandError('the password must be 1-1024 characters long'));
      expect(await repository.findByUsername('someone')).toBeNull();
    });
  });

  describe('passwd', () => {
    it('replaces the password', async () => {
      await sut.add({ username: 'acme', role: 'customer', customerIds: ['acme'] }, password('old-pw'));

      expect(await sut.passwd('acme', password('new-pw'))).toEqual(['Changed the password of "acme"']);

      const hash = await storedHash('acme');
      expect(await hasher.verify(hash, 'new-pw')).toBe(true);
      expect(await hasher.verify(hash, 'old-pw')).toBe(false);
    });

    it('refuses an unknown user before asking for a password', async () => {
      await expect(sut.passwd('nobody', neverAsked)).rejects.toThrow(
        new UsersCommandError('no user named "nobody"'),
      );
    });

    it('keeps the old password when the new one is refused', async () => {
      await sut.add({ username: 'acme', role: 'staff', customerIds: [] }, password('old-pw'));

      await expect(sut.passwd('acme', password(''))).rejects.toThrow(UsersCommandError);
      expect(await hasher.verify(await storedHash('acme'), 'old-pw')).toBe(true);
    });
  });

  describe('disable and enable', () => {
    beforeEach(() => sut.add({ username: 'acme', role: 'customer', customerIds: ['acme'] }, password('pw')));

    it('disables and enables again', async () => {
      expect(await sut.disable('acme')).toEqual([
        'Disabled "acme"; tokens already issued stop working within 60 seconds',
      ]);
      expect(await repository.findByUsername('acme')).toMatchObject({ active: false });
      expect(await sut.disable('acme')).toEqual(['"acme" is already disabled']);

      expect(await sut.enable('acme')).toEqual(['Enabled "acme"']);
      expect(await repository.findByUsername('acme')).toMatchObject({ active: true });
      expect(await sut.enable('acme')).toEqual(['"acme" is already enabled']);
    });

    it('refuses an unknown user', async () => {
      await expect(sut.disable('nobody')).rejects.toThrow(new UsersCommandError('no user named "nobody"'));
      await expect(sut.enable('nobody')).rejects.toThrow(new UsersCommandError('no user named "nobody"'));
    });
  });

  describe('list', () => {
    it('says so when there are no users', async () => {
      expect(await sut.list()).toEqual(['No users']);
    });

    it('prints username, role, active and customers as an aligned table', async () => {
      await sut.add({ username: 'operator', role: 'staff', customerIds: [] }, password('pw'));
      await sut.add({ username: 'acme', role: 'customer', customerIds: ['globex', 'acme'] }, password('pw'));
      await sut.disable('acme');

      expect(await sut.list()).toEqual([
        'USERNAME  ROLE      ACTIVE  CUSTOMERS',
        'acme      customer  no      acme,globex',
        'operator  staff     yes     (all)',
      ]);
    });
  });
});
