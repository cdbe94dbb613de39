import type { Logger } from '@nestjs/common';

/**
 * One line for a connection the server dropped: its SQLSTATE or socket code and message, never
 * the connection's parameters (user, host, database), which pg's errors may carry.
 */
export function logConnectionLoss(logger: Logger, connection: string, error: Error): void {
  const code = (error as { code?: unknown }).code;
  logger.warn(
    `${connection} to the database was lost (${typeof code === 'string' ? `${code}: ` : ''}${error.message})`,
  );
}
