import { parseArgs } from 'node:util';
import type { Writable } from 'node:stream';
import { USER_ROLES, type UserRole } from '../domain/authenticated-user.js';
import { passwordFrom, type TerminalInput } from './password-input.js';
import { UsersCommandError, type UsersCommand } from './users.command.js';

export const USERS_USAGE = `Usage: npm run users -- <command>

Commands:
  add <username> --role customer|staff [--customers <id,id,...>]
                         add a user; a customer user needs at least one customer id
  passwd <username>      set a user's password
  disable <username>     disable a user (tokens already issued stop working within 60 s)
  enable <username>      enable a disabled user
  list                   list users: username, role, active, customers

Passwords are never arguments: they are read from the first line of standard input when it
is piped, otherwise asked for twice on the terminal without echo.`;

export type UsersInvocation =
  | { command: 'help' }
  | { command: 'add'; username: string; role: UserRole; customerIds: string[] }
  | { command: 'passwd' | 'disable' | 'enable'; username: string }
  | { command: 'list' };

/** Bad command line: exit 2 with the usage text. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

export function parseUsersArgs(argv: string[]): UsersInvocation {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      options: {
        role: { type: 'string' },
        customers: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      allowPositionals: true,
      strict: true,
    });
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  const { values, positionals } = parsed;
  const [command, ...operands] = positionals;
  if (values.help === true) return { command: 'help' };
  if (command === undefined) throw new UsageError('a command is required');

  const optionsGiven = (['role', 'customers'] as const).filter((name) => values[name] !== undefined);
  if (command !== 'add' && optionsGiven.length > 0) {
    throw new UsageError(`"${command}" takes no --${optionsGiven[0]}`);
  }
  switch (command) {
    case 'list':
      if (operands.length > 0) throw new UsageError('"list" takes no arguments');
      return { command };
    case 'passwd':
    case 'disable':
    case 'enable': {
      return { command, username: onlyUsername(command, operands) };
    }
    case 'add': {
      const username = onlyUsername(command, operands);
      const role = values.role;
      if (role === undefined) throw new UsageError('"add" needs --role customer|staff');
      if (!isUserRole(role)) throw new UsageError(`--role must be customer or staff, not "${role}"`);
      const customerIds = (values.customers ?? '')
        .split(',')
        .map((id) => id.trim())
        .filter((id) => id.length > 0);
      return { command, username, role, customerIds };
    }
    default:
      throw new UsageError(`unknown command "${command}"`);
  }
}

function onlyUsername(command: string, operands: string[]): string {
  const [username, ...extra] = operands;
  if (username === undefined || extra.length > 0) throw new UsageError(`"${command}" takes one <username>`);
  return username;
}

const isUserRole = (value: string): value is UserRole => (USER_ROLES as readonly string[]).includes(value);

export interface CliIo {
  stdin: TerminalInput;
  stdout: Writable;
  stderr: Writable;
}

/** Opens what the command needs (database, hasher) and how to let it go again. */
export type UsersCommandOpener = () => Promise<{ command: UsersCommand; close(): Promise<void> }>;

/**
 * Runs one invocation and returns the exit code: 0 done, 1 failed (one line on stderr),
 * 2 bad command line (usage on stderr). The database is opened only for a valid command line.
 */
export async function runUsersCli(argv: string[], io: CliIo, open: UsersCommandOpener): Promise<number> {
  let invocation: UsersInvocation;
  try {
    invocation = parseUsersArgs(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    io.stderr.write(`error: ${error.message}\n\n${USERS_USAGE}\n`);
    return 2;
  }
  if (invocation.command === 'help') {
    io.stdout.write(`${USERS_USAGE}\n`);
    return 0;
  }

  let opened: Awaited<ReturnType<UsersCommandOpener>> | undefined;
  try {
    opened = await open();
    const lines = await execute(opened.command, invocation, passwordFrom(io.stdin, io.stderr));
    io.stdout.write(lines.map((line) => `${line}\n`).join(''));
    return 0;
  } catch (error) {
    // Operator errors and environment failures (configuration, unreachable database) alike get
    // one line: a stack trace helps nobody who runs this command.
    io.stderr.write(`error: ${describe(error)}\n`);
    return 1;
  } finally {
    await opened?.close();
  }
}

function execute(
  command: UsersCommand,
  invocation: Exclude<UsersInvocation, { command: 'help' }>,
  readPassword: () => Promise<string>,
): Promise<string[]> {
  switch (invocation.command) {
    case 'add':
      return command.add(invocation, readPassword);
    case 'passwd':
      return command.passwd(invocation.username, readPassword);
    case 'disable':
      return command.disable(invocation.username);
    case 'enable':
      return command.enable(invocation.username);
    case 'list':
      return command.list();
  }
}

function describe(error: unknown): string {
  if (error instanceof UsersCommandError) return error.message;
  if (error instanceof Error) {
    // drizzle's "Failed query: <sql>" says less than the database's own reason.
    const cause = error.cause instanceof Error ? error.cause.message : undefined;
    return error.message.startsWith('Failed query:') && cause !== undefined ? cause : error.message;
  }
  return String(error);
}
