import { Injectable } from '@nestjs/common';
import { PasswordHasher } from '../auth/password-hasher.service.js';
import { UnknownCustomersError, UsersRepository, type UserRecord } from '../auth/users/users.repository.js';
import type { UserRole } from '../domain/authenticated-user.js';

/** The lengths the login endpoint accepts, so every user made here can log in. */
const USERNAME_MAX_LENGTH = 128;
const PASSWORD_MAX_LENGTH = 1024;
/** PostgreSQL's unique_violation. */
const UNIQUE_VIOLATION = '23505';

/** A failure the operator caused and can fix: reported as one line, never with a stack trace. */
export class UsersCommandError extends Error {
  override readonly name = 'UsersCommandError';
}

/** Asked for only once the rest of the command is known to be valid, so nobody types a password in vain. */
export type PasswordSource = () => Promise<string>;

export interface AddUserInput {
  username: string;
  role: UserRole;
  customerIds: string[];
}

/** The users command line's work, apart from argv and stdin: each method returns the lines to print. */
@Injectable()
export class UsersCommand {
  constructor(
    private readonly users: UsersRepository,
    private readonly hasher: PasswordHasher,
  ) {}

  async add(input: AddUserInput, readPassword: PasswordSource): Promise<string[]> {
    assertUsername(input.username);
    const customerIds = [...new Set(input.customerIds)];
    if (input.role === 'customer' && customerIds.length === 0) {
      throw new UsersCommandError('a customer user needs at least one customer id (--customers)');
    }
    if (input.role === 'staff' && customerIds.length > 0) {
      throw new UsersCommandError('a staff user sees every customer; leave out --customers');
    }
    if ((await this.users.findByUsername(input.username)) !== null) {
      throw duplicate(input.username);
    }
    const passwordHash = await this.hasher.hash(checkedPassword(await readPassword()));
    try {
      await this.users.create({ username: input.username, passwordHash, role: input.role, customerIds });
    } catch (error) {
      if (error instanceof UnknownCustomersError) {
        throw new UsersCommandError(`unknown customer ids: ${error.customerIds.join(', ')}`);
      }
      // Someone else created the same name between the check and the insert.
      if (hasErrorCode(error, UNIQUE_VIOLATION)) throw duplicate(input.username);
      throw error;
    }
    const sees = input.role === 'staff' ? 'all customers' : `customers ${customerIds.join(', ')}`;
    return [`Added ${input.role} user "${input.username}" (${sees})`];
  }

  async passwd(username: string, readPassword: PasswordSource): Promise<string[]> {
    await this.existing(username);
    const passwordHash = await this.hasher.hash(checkedPassword(await readPassword()));
    if (!(await this.users.update(username, { passwordHash }))) throw unknownUser(username);
    return [`Changed the password of "${username}"`];
  }

  async disable(username: string): Promise<string[]> {
    const user = await this.existing(username);
    if (!user.active) return [`"${username}" is already disabled`];
    await this.users.update(username, { active: false });
    // UserAccessService caches a user for at most 30 s; the API promises 60.
    return [`Disabled "${username}"; tokens already issued stop working within 60 seconds`];
  }

  async enable(username: string): Promise<string[]> {
    const user = await this.existing(username);
    if (user.active) return [`"${username}" is already enabled`];
    await this.users.update(username, { active: true });
    return [`Enabled "${username}"`];
  }

  async list(): Promise<string[]> {
    const users = await this.users.list();
    if (users.length === 0) return ['No users'];
    return formatTable(
      ['USERNAME', 'ROLE', 'ACTIVE', 'CUSTOMERS'],
      users.map((user) => [
        user.username,
        user.role,
        user.active ? 'yes' : 'no',
        user.role === 'staff' ? '(all)' : user.customerIds.join(','),
      ]),
    );
  }

  private async existing(username: string): Promise<UserRecord> {
    const user = await this.users.findByUsername(username);
    if (user === null) throw unknownUser(username);
    return user;
  }
}

/** Lengths in characters (code points), as PostgreSQL's `char_length` and the login DTO count them. */
const lengthOf = (value: string): number => [...value].length;

function assertUsername(username: string): void {
  const length = lengthOf(username);
  if (length < 1 || length > USERNAME_MAX_LENGTH) {
    throw new UsersCommandError(`the username must be 1-${USERNAME_MAX_LENGTH} characters long`);
  }
  if (username.trim() !== username || /\p{Cc}/u.test(username)) {
    throw new UsersCommandError('the username must not hold control characters or surrounding spaces');
  }
}

function checkedPassword(password: string): string {
  const length = lengthOf(password);
  if (length < 1 || length > PASSWORD_MAX_LENGTH) {
    throw new UsersCommandError(`the password must be 1-${PASSWORD_MAX_LENGTH} characters long`);
  }
  return password;
}

const duplicate = (username: string) => new UsersCommandError(`a user named "${username}" already exists`);
const unknownUser = (username: string) => new UsersCommandError(`no user named "${username}"`);

/** Drivers and drizzle wrap the database's error; its SQLSTATE is somewhere down the `cause` chain. */
function hasErrorCode(error: unknown, code: string): boolean {
  for (let current = error; current instanceof Error; current = current.cause) {
    if ((current as Error & { code?: unknown }).code === code) return true;
  }
  return false;
}

function formatTable(header: string[], rows: string[][]): string[] {
  const widths = header.map((title, column) =>
    Math.max(lengthOf(title), ...rows.map((row) => lengthOf(row[column] ?? ''))),
  );
  return [header, ...rows].map((cells) =>
    cells
      .map((cell, column) => cell + ' '.repeat((widths[column] ?? 0) - lengthOf(cell)))
      .join('  ')
      .trimEnd(),
  );
}
