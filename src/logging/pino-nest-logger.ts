import { Inject, Injectable, type LoggerService } from '@nestjs/common';
import { ROOT_LOGGER, type RootLogger } from './root-logger.js';

type PinoLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';

/**
 * Nest's `LoggerService` over the service's one pino instance: every `new Logger(Context)` writes
 * JSON lines through it, with its `context`. A call passes a message, or an object of fields
 * followed by an optional message, as pino's own methods take them; Nest appends the context.
 */
@Injectable()
export class PinoNestLogger implements LoggerService {
  constructor(@Inject(ROOT_LOGGER) private readonly root: RootLogger) {}

  fatal(message: unknown, ...rest: unknown[]): void {
    this.write('fatal', message, rest);
  }

  error(message: unknown, ...rest: unknown[]): void {
    this.write('error', message, rest);
  }

  warn(message: unknown, ...rest: unknown[]): void {
    this.write('warn', message, rest);
  }

  log(message: unknown, ...rest: unknown[]): void {
    this.write('info', message, rest);
  }

  debug(message: unknown, ...rest: unknown[]): void {
    this.write('debug', message, rest);
  }

  verbose(message: unknown, ...rest: unknown[]): void {
    this.write('trace', message, rest);
  }

  private write(level: PinoLevel, message: unknown, rest: unknown[]): void {
    const params = rest.filter((param) => param !== undefined);
    const context = typeof params.at(-1) === 'string' ? (params.pop() as string) : undefined;
    const fields: Record<string, unknown> = context === undefined ? {} : { context };
    if (message instanceof Error) {
      this.root[level]({ ...fields, err: message }, message.message);
    } else if (typeof message === 'object' && message !== null) {
      const text = typeof params[0] === 'string' ? params[0] : undefined;
      this.root[level]({ ...fields, ...(message as Record<string, unknown>) }, text);
    } else {
      // Nest's own `error(message, stack)`: the stack, when given, is kept beside the message.
      const stack = typeof params[0] === 'string' ? params[0] : undefined;
      this.root[level]({ ...fields, ...(stack !== undefined && { stack }) }, String(message));
    }
  }
}
