import { Body, Controller, Headers, HttpCode, Post, UseGuards } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { Public } from '../../common/http/public.decorator.js';
import { NotificationReplayGuard } from './notification-replay.guard.js';
import { NotificationSignatureGuard } from './notification-signature.guard.js';
import { ProcessesChangedNotification } from './processes-changed.dto.js';
import { SyncOnDemand } from './sync-on-demand.js';

/**
 * `POST /api/operations/notifications`: the operations system says processes changed, and a sync
 * starts within a second instead of at the next timed run. Signed as Standard Webhooks with
 * `OPERATIONS_NOTIFY_SECRET`; not a route of the public API (no token, not in the document).
 */
@ApiExcludeController()
@Public()
@UseGuards(NotificationSignatureGuard)
@Controller('api/operations/notifications')
export class OperationsNotificationsController {
  constructor(
    private readonly replays: NotificationReplayGuard,
    private readonly syncOnDemand: SyncOnDemand,
  ) {}

  /** 202 whatever it leads to: a replayed id is accepted and does nothing. */
  @Post()
  @HttpCode(202)
  async receive(
    @Headers('webhook-id') id: string,
    // Checked for its shape only: the sync reads every change since its watermark, named here or not.
    @Body() _notification: ProcessesChangedNotification,
  ): Promise<void> {
    if (await this.replays.firstSighting(id)) this.syncOnDemand.request();
  }
}
