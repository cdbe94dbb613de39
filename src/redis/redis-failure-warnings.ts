import type { Logger } from '@nestjs/common';
import { ThrottledWarnings } from '../logging/throttled-warnings.js';

/** Warnings about Redis failures the service works around, one line per kind and interval. */
export function redisFailureWarnings(logger: Pick<Logger, 'warn'>): ThrottledWarnings {
  return new ThrottledWarnings(logger, { subject: 'Redis unavailable' });
}
