import { ApiProperty } from '@nestjs/swagger';
import { ChangeDto } from '../../changes/dto/change.response.dto.js';
import { CHANGE_KINDS, type ChangeKind } from '../../domain/change-kinds.js';
import { DELIVERY_KINDS, type DeliveryKind } from '../webhook-message.js';
import { WEBHOOK_STATUSES, type WebhookStatus } from '../../database/schema.js';

const EVENT_TYPES = CHANGE_KINDS.map((kind) => `process.${kind.toLowerCase()}`);

export class WebhookResponseDto {
  @ApiProperty({ format: 'uuid' })
  id!: string;

  @ApiProperty({ format: 'uri', example: 'https://erp.example.com/hooks/process-lookup' })
  url!: string;

  @ApiProperty({ type: 'string', nullable: true, example: 'ERP import' })
  description!: string | null;

  @ApiProperty({
    enum: CHANGE_KINDS,
    isArray: true,
    nullable: true,
    description: 'The kinds of change delivered; null: every kind',
  })
  kinds!: ChangeKind[] | null;

  @ApiProperty({
    enum: WEBHOOK_STATUSES,
    description:
      '`ACTIVE` delivers; `PAUSED` waits for its owner; `DISABLED` stopped by the service (see `disabledReason`): ' +
      'a replay or a `PATCH` to `ACTIVE` resumes it where it stopped',
  })
  status!: WebhookStatus;

  @ApiProperty({ type: 'string', nullable: true, description: 'Why the service disabled it; null otherwise' })
  disabledReason!: string | null;

  @ApiProperty({
    description: 'The cursor of the last change delivered (or passed over as not for this subscription)',
    example: 'AAAAAAAAAQn44-hy',
    maxLength: 16,
  })
  position!: string;

  @ApiProperty({
    type: 'integer',
    format: 'int32',
    description: 'How many attempts of the next change have failed so far',
  })
  failedAttempts!: number;

  @ApiProperty({
    type: 'string',
    format: 'date-time',
    nullable: true,
    description: 'When the failed change is tried again; null when nothing is waiting for a retry',
  })
  nextAttemptAt!: string | null;

  @ApiProperty({ format: 'date-time' })
  createdAt!: string;

  @ApiProperty({ format: 'date-time' })
  updatedAt!: string;
}

export class CreatedWebhookResponseDto extends WebhookResponseDto {
  @ApiProperty({
    description:
      'The signing secret (`whsec_` and 32 bytes in base64), shown only here and at rotation: keep it with the receiver',
    example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
  })
  secret!: string;
}

export class WebhookListResponseDto {
  @ApiProperty({ type: [WebhookResponseDto], maxItems: 10 })
  data!: WebhookResponseDto[];
}

export class WebhookSecretResponseDto {
  @ApiProperty({
    description:
      'The new signing secret, shown only here. Every secret it replaces goes on signing for 24 h after its ' +
      'replacement: deliveries carry one signature a live secret',
    example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
  })
  secret!: string;
}

export class WebhookDeliveryResponseDto {
  @ApiProperty({ description: 'The attempt’s id', example: '1042' })
  id!: string;

  @ApiProperty({
    description:
      'The `webhook-id` sent: the change’s cursor, the same on every retry, replay and resend (`test_…` for a test ' +
      'message)',
    example: 'AAAAAAAAAQn44-hy',
  })
  messageId!: string;

  @ApiProperty({
    enum: DELIVERY_KINDS,
    description: 'The change’s kind, or `WEBHOOK_TEST` for the test message',
  })
  kind!: DeliveryKind;

  @ApiProperty({
    type: 'integer',
    format: 'int32',
    minimum: 1,
    description: '1 for the first attempt of the change (and for a test message or a resend, never retried)',
  })
  attempt!: number;

  @ApiProperty({ format: 'date-time' })
  attemptedAt!: string;

  @ApiProperty({
    type: 'integer',
    format: 'int32',
    nullable: true,
    description:
      'The receiver’s HTTP status; null when it gave none (timeout, connection failure, refused target)',
  })
  responseStatus!: number | null;

  @ApiProperty({ type: 'integer', format: 'int32', minimum: 0 })
  durationMs!: number;

  @ApiProperty({ type: 'string', nullable: true, description: 'What went wrong; null on success' })
  error!: string | null;

  @ApiProperty({
    type: 'string',
    format: 'date-time',
    nullable: true,
    description:
      'When this change is tried again; null after a success or when the subscription was disabled',
  })
  nextAttemptAt!: string | null;
}

/** What `sendWebhookTest` and `resendWebhookDelivery` answer: the message on its way. */
export class WebhookMessageResponseDto {
  @ApiProperty({
    description: 'The `webhook-id` it is sent with; its attempt shows in the deliveries log under it',
    example: 'test_5b0c7f5e-2d6a-4c1e-9a39-8d1f6b7e4a20',
    maxLength: 64,
  })
  messageId!: string;
}

export class WebhookDeliveriesPageResponseDto {
  @ApiProperty({ type: [WebhookDeliveryResponseDto], description: 'Newest first' })
  data!: WebhookDeliveryResponseDto[];

  @ApiProperty({
    type: 'string',
    nullable: true,
    description: 'Ask with `after=<next>` for older attempts; null when there are none',
  })
  next!: string | null;

  @ApiProperty()
  hasMore!: boolean;
}

/**
 * The body of every delivery (`POST` to the subscription's URL), signed per Standard Webhooks v1:
 * headers `webhook-id` (the change's cursor), `webhook-timestamp` and `webhook-signature`.
 */
export class WebhookPayloadDto {
  @ApiProperty({ enum: EVENT_TYPES, description: '`process.` and the change’s kind in lower case' })
  type!: string;

  @ApiProperty({ format: 'date-time', description: 'When the change was recorded' })
  timestamp!: string;

  @ApiProperty({ type: ChangeDto, description: 'The change as `GET /api/changes` gives it' })
  data!: ChangeDto;
}
