import { Global, Module } from '@nestjs/common';
import { ShutdownState } from './shutdown.state.js';

/** The shutdown state, for readiness and anything else that must know the service is leaving. */
@Global()
@Module({
  providers: [ShutdownState],
  exports: [ShutdownState],
})
export class LifecycleModule {}
