import type { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';

/**
 * A Nest application context for a command line: silent (the command prints its own results)
 * and throwing start-up errors to the caller instead of aborting the process.
 */
export function createCliContext(module: object): Promise<INestApplicationContext> {
  return NestFactory.createApplicationContext(module, { logger: false, abortOnError: false });
}
