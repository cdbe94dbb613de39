import { Module } from '@nestjs/common';
import { ProcessVisibility } from './process-visibility.js';

/** Who may see which customers' processes, for every module that shows them. */
@Module({
  providers: [ProcessVisibility],
  exports: [ProcessVisibility],
})
export class VisibilityModule {}
