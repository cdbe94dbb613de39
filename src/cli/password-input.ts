import { createInterface } from 'node:readline';
import { createInterface as createPromptInterface } from 'node:readline/promises';
import { Writable, type Readable } from 'node:stream';
import { UsersCommandError } from './users.command.js';

/** A terminal input: stdin when it is a TTY. */
export type TerminalInput = Readable & { isTTY?: boolean };

/** The first line of a piped stream, without its line ending; `''` for an empty stream. */
export function readFirstLine(input: Readable): Promise<string> {
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input, crlfDelay: Infinity });
    let first: string | undefined;
    lines.once('line', (line) => {
      first = line;
      lines.close();
    });
    lines.once('close', () => {
      // Nothing else is read: let a still-open pipe go so the process can exit.
      input.destroy();
      resolve(first ?? '');
    });
    input.once('error', reject);
  });
}

/**
 * Asks for a new password twice on the terminal without echoing it. Prompts go to `prompts`
 * (stderr), so standard output holds only the command's result.
 */
export async function promptNewPassword(input: TerminalInput, prompts: Writable): Promise<string> {
  // readline echoes what is typed to its output; a sink swallows the echo.
  const sink = new Writable({ write: (_chunk, _encoding, done) => done() });
  const rl = createPromptInterface({ input, output: sink, terminal: true });
  const cancelled = new AbortController();
  // Ctrl-C and Ctrl-D (end of input) both leave the question unanswered.
  rl.once('SIGINT', () => cancelled.abort());
  rl.once('close', () => cancelled.abort());
  const ask = async (question: string): Promise<string> => {
    prompts.write(question);
    try {
      return await rl.question('', { signal: cancelled.signal });
    } finally {
      prompts.write('\n');
    }
  };
  try {
    const password = await ask('New password: ');
    const again = await ask('Repeat the password: ');
    if (password !== again) throw new UsersCommandError('the passwords do not match');
    return password;
  } catch (error) {
    if (cancelled.signal.aborted) throw new UsersCommandError('cancelled');
    throw error;
  } finally {
    rl.close();
  }
}

/** Standard input when piped (`printf '%s\n' "$PW" | npm run users -- passwd acme`), else a prompt. */
export function passwordFrom(input: TerminalInput, prompts: Writable): () => Promise<string> {
  return () => (input.isTTY === true ? promptNewPassword(input, prompts) : readFirstLine(input));
}
