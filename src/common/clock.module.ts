import { Module } from '@nestjs/common';
import { Clock, SystemClock } from './clock.js';

/**
 * The one {@link Clock} of the application: the service, the sync, the rate limits and the
 * webhooks all read it, so a test that overrides `Clock` moves the time of all of them.
 */
@Module({
  providers: [{ provide: Clock, useClass: SystemClock }],
  exports: [Clock],
})
export class ClockModule {}
