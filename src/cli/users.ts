import 'reflect-metadata';
import { existsSync } from 'node:fs';
import { createCliContext } from './nest-context.js';
import { runUsersCli } from './users-cli.js';
import { UsersCliModule } from './users-cli.module.js';
import { UsersCommand } from './users.command.js';

if (existsSync('.env')) process.loadEnvFile('.env');

process.exitCode = await runUsersCli(
  process.argv.slice(2),
  { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr },
  async () => {
    const context = await createCliContext(UsersCliModule);
    return { command: context.get(UsersCommand), close: () => context.close() };
  },
);
