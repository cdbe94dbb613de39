import { pino, type DestinationStream, type Logger as PinoInstance, type LoggerOptions } from 'pino';
import type { LogSettings } from '../config/server.config.js';
import { LOG_SERIALIZERS, REDACTED_PATHS, logLineWithoutStatementParameters } from './log-serializers.js';

/** Where log lines go: stdout unless a test hands in a stream of its own. */
export const LOG_DESTINATION = Symbol('LOG_DESTINATION');
/** The service's one pino instance. */
export const ROOT_LOGGER = Symbol('ROOT_LOGGER');

export type RootLogger = PinoInstance;

/**
 * JSON lines at `LOG_LEVEL`, ISO timestamps, level names, secrets censored, no failed statement's
 * values (in an error, a message or any field, however it got there). Human-readable
 * (pino-pretty) only in development when stdout is a terminal.
 */
export function createRootLogger(config: LogSettings, destination: DestinationStream | null): RootLogger {
  const options: LoggerOptions = {
    level: config.logLevel,
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
    serializers: LOG_SERIALIZERS,
    redact: { paths: REDACTED_PATHS, censor: '[Redacted]' },
    hooks: { streamWrite: logLineWithoutStatementParameters },
  };
  if (destination !== null) return pino(options, destination);
  if (config.nodeEnv === 'development' && process.stdout.isTTY) {
    return pino({
      ...options,
      // pino-pretty prints its own level names.
      formatters: {},
      transport: {
        target: 'pino-pretty',
        options: { translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname' },
      },
    });
  }
  return pino(options);
}
