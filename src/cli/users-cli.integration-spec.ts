import { PassThrough, Writable } from 'node:stream';
import { connectTestDatabase, createTestDatabase, TEST_DATABASE_TARGETS } from '../testing/test-database.js';
import { CheapPasswordHasher } from '../testing/cheap-password-hasher.js';
import { UsersRepository } from '../auth/users/users.repository.js';
import { customers } from '../database/schema.js';
import { createCliContext } from './nest-context.js';
import { promptNewPassword, readFirstLine, type TerminalInput } from './password-input.js';
import { parseUsersArgs, runUsersCli, UsageError, USERS_USAGE, type CliIo } from './users-cli.js';
import { UsersCliModule } from './users-cli.module.js';
import { UsersCommand } from './users.command.js';

class Capture extends Writable {
  text = '';
  override _write(chunk: Buffer, _encoding: BufferEncoding, done: () => void): void {
    this.text += chunk.toString();
    done();
  }
}

function fakeIo(stdinText = ''): CliIo & { stdout: Capture; stderr: Capture } {
  const stdin = new PassThrough();
  stdin.end(stdinText);
  return { stdin, stdout: new Capture(), stderr: new Capture() };
}

describe(parseUsersArgs.name, () => {
  it.each([
    [['list'], { command: 'list' }],
    [['passwd', 'acme'], { command: 'passwd', username: 'acme' }],
    [['disable', 'acme'], { command: 'disable', username: 'acme' }],
    [['enable', 'acme'], { command: 'enable', username: 'acme' }],
    [['add', 'op', '--role', 'staff'], { command: 'add', username: 'op', role: 'staff', customerIds: [] }],
    [
      ['add', 'acme', '--role=customer', '--customers', ' acme, globex ,,'],
      { command: 'add', username: 'acme', role: 'customer', customerIds: ['acme', 'globex'] },
    ],
    [['--help'], { command: 'help' }],
    [['add', '-h'], { command: 'help' }],
  ])('reads %j', (argv, expected) => {
    expect(parseUsersArgs(argv)).toEqual(expected);
  });

  it.each([
    [[], /a command is required/],
    [['frob'], /unknown command "frob"/],
    [['list', 'extra'], /"list" takes no arguments/],
    [['passwd'], /"passwd" takes one <username>/],
    [['disable', 'a', 'b'], /"disable" takes one <username>/],
    [['add', 'acme'], /"add" needs --role/],
    [['add', 'acme', '--role', 'admin'], /--role must be customer or staff, not "admin"/],
    [['add', '--role', 'staff'], /"add" takes one <username>/],
    [['passwd', 'acme', '--role', 'staff'], /"passwd" takes no --role/],
    [['list', '--customers', 'acme'], /"list" takes no --customers/],
    [['passwd', 'acme', '--password', 'secret'], /--password/],
    [['add', 'acme', '--role'], /--role/],
  ])('refuses %j', (argv, message) => {
    expect(() => parseUsersArgs(argv)).toThrow(UsageError);
    expect(() => parseUsersArgs(argv)).toThrow(message);
  });
});

describe(runUsersCli.name, () => {
  const unopenable = () => Promise.reject(new Error('the database must not be opened'));

  it('prints the usage and exits with 2 on a bad command line, without opening the database', async () => {
    const io = fakeIo();

    expect(await runUsersCli(['frob'], io, unopenable)).toBe(2);
    expect(io.stderr.text).toBe(`error: unknown command "frob"\n\n${USERS_USAGE}\n`);
    expect(io.stdout.text).toBe('');
  });

  it('prints the usage on standard output for --help and exits with 0', async () => {
    const io = fakeIo();

    expect(await runUsersCli(['--help'], io, unopenable)).toBe(0);
    expect(io.stdout.text).toBe(`${USERS_USAGE}\n`);
  });

  it('reports a failure to open the database as one line and exits with 1', async () => {
    const io = fakeIo();
    const cause = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });

    expect(await runUsersCli(['list'], io, () => Promise.reject(cause))).toBe(1);
    expect(io.stderr.text).toBe('error: connect ECONNREFUSED 127.0.0.1:5432\n');
  });

  describe.each(TEST_DATABASE_TARGETS)('on %s', (target) => {
    let dispose: () => Promise<void>;
    let command: UsersCommand;
    let closes: number;
    const open = () => {
      return Promise.resolve({ command, close: () => Promise.resolve(void closes++) });
    };

    beforeAll(async () => {
      const connected = await connectTestDatabase(target);
      dispose = connected.dispose;
      await connected.database.db.insert(customers).values({ id: 'acme', name: 'ACME' });
      command = new UsersCommand(new UsersRepository(connected.database), new CheapPasswordHasher());
    });

    afterAll(() => dispose());

    beforeEach(() => {
      closes = 0;
    });

    it('adds a user with the password from standard input, then lists it, closing each time', async () => {
      const add = fakeIo('s3cret\n');
      expect(await runUsersCli(['add', 'acme', '--role', 'customer', '--customers', 'acme'], add, open)).toBe(
        0,
      );
      expect(add.stdout.text).toBe('Added customer user "acme" (customers acme)\n');
      expect(add.stderr.text).toBe('');

      const list = fakeIo();
      expect(await runUsersCli(['list'], list, open)).toBe(0);
      expect(list.stdout.text).toBe(
        'USERNAME  ROLE      ACTIVE  CUSTOMERS\nacme      customer  yes     acme\n',
      );
      expect(closes).toBe(2);
    });

    it('reports an operator error as one line without a stack trace and exits with 1', async () => {
      const io = fakeIo('pw\n');

      expect(await runUsersCli(['add', 'x', '--role', 'customer', '--customers', 'initech'], io, open)).toBe(
        1,
      );
      expect(io.stderr.text).toBe('error: unknown customer ids: initech\n');
      expect(io.stdout.text).toBe('');
      expect(closes).toBe(1);
    });
  });
});

describe(UsersCliModule.name, () => {
  const saved = { ...process.env };

  afterEach(() => {
    process.env = { ...saved };
  });

  it.each(TEST_DATABASE_TARGETS)('wires a working %s users command from the environment', async (target) => {
    const { options, drop } = await createTestDatabase(target);
    process.env = { ...saved, NODE_ENV: 'test', PGLITE_DIR: options.pgliteDir };
    delete process.env.DATABASE_URL;
    if (options.url !== null) process.env.DATABASE_URL = options.url;
    const context = await createCliContext(UsersCliModule);
    try {
      expect(await context.get(UsersCommand).list()).toEqual(['No users']);
    } finally {
      await context.close();
      await drop();
    }
  });

  it('fails with the configuration error instead of aborting the process', async () => {
    process.env = { ...saved, PORT: '1e3' };

    await expect(createCliContext(UsersCliModule)).rejects.toThrow(/PORT/);
  });
});

describe(readFirstLine.name, () => {
  it.each([
    ['the first line of several', 'first\nsecond\n', 'first'],
    ['a CRLF line', 'pw\r\n', 'pw'],
    ['a last line without a newline', 'no newline', 'no newline'],
    ['spaces, kept as typed', '  spaced pw  \n', '  spaced pw  '],
    ['nothing at all', '', ''],
  ])('reads %s', async (_case, text, expected) => {
    const input = new PassThrough();
    input.end(text);

    expect(await readFirstLine(input)).toBe(expected);
    expect(input.destroyed).toBe(true);
  });

  it('does not wait for the end of a stream that stays open', async () => {
    const input = new PassThrough();
    input.write('pw\n');

    expect(await readFirstLine(input)).toBe('pw');
  });
});

describe(promptNewPassword.name, () => {
  function fakeTerminal(): TerminalInput & PassThrough {
    return Object.assign(new PassThrough(), { isTTY: true, setRawMode: () => true });
  }

  /** Types each answer once the prompt for it is shown, like a person at the terminal. */
  function typeAfterPrompts(input: PassThrough, prompts: Capture, answers: string[]): void {
    const pending = [...answers];
    const write = prompts._write.bind(prompts);
    prompts._write = (chunk, encoding, done) => {
      write(chunk, encoding, done);
      if (chunk.toString().endsWith(': ')) setImmediate(() => input.write(pending.shift() ?? ''));
    };
  }

  it('asks twice and answers the password when both match, echoing nothing', async () => {
    const input = fakeTerminal();
    const prompts = new Capture();
    typeAfterPrompts(input, prompts, ['hunter2\r', 'hunter2\r']);

    expect(await promptNewPassword(input, prompts)).toBe('hunter2');
    expect(prompts.text).toBe('New password: \nRepeat the password: \n');
  });

  it('refuses two different answers', async () => {
    const input = fakeTerminal();
    const prompts = new Capture();
    typeAfterPrompts(input, prompts, ['hunter2\r', 'hunter3\r']);

    await expect(promptNewPassword(input, prompts)).rejects.toThrow('the passwords do not match');
  });

  it('is cancelled by Ctrl-C', async () => {
    const input = fakeTerminal();
    const prompts = new Capture();
    typeAfterPrompts(input, prompts, ['\x03']);

    await expect(promptNewPassword(input, prompts)).rejects.toThrow('cancelled');
  });
});
