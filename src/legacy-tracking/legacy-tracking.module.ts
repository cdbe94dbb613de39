import { Module } from '@nestjs/common';
import { LegacyTrackingController } from './legacy-tracking.controller.js';

@Module({ controllers: [LegacyTrackingController] })
export class LegacyTrackingModule {}
