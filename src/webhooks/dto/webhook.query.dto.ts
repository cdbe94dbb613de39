import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional } from 'class-validator';
import { IsIntegerParameter, IsParameterMatching } from '../../common/validation/query-parameters.js';

export const DEFAULT_DELIVERIES_LIMIT = 20;

export const DELIVERY_ID = /^[1-9]\d{0,15}$/;

/** What `outcome=` narrows the deliveries log to: the attempts answered 2xx, or the others. */
export const DELIVERY_LOG_OUTCOMES = ['succeeded', 'failed'] as const;
export type DeliveryLogOutcome = (typeof DELIVERY_LOG_OUTCOMES)[number];
const isDeliveryLogOutcome = (value: string): value is DeliveryLogOutcome =>
  (DELIVERY_LOG_OUTCOMES as readonly string[]).includes(value);

/** `GET /api/webhooks/{id}/deliveries` parameters. */
export class ListWebhookDeliveriesQueryDto {
  @ApiPropertyOptional({
    type: 'integer',
    format: 'int32',
    minimum: 1,
    maximum: 100,
    default: DEFAULT_DELIVERIES_LIMIT,
    example: DEFAULT_DELIVERIES_LIMIT,
    description: 'How many attempts at most',
  })
  @IsOptional()
  @IsIntegerParameter(1, 100)
  limit?: string;

  @ApiPropertyOptional({
    description: 'The `next` of an earlier page: the attempts older than it',
    pattern: DELIVERY_ID.source,
    maxLength: 16,
  })
  @IsOptional()
  @IsParameterMatching((value) => DELIVERY_ID.test(value), 'must be the next of an earlier page')
  after?: string;

  @ApiPropertyOptional({
    enum: DELIVERY_LOG_OUTCOMES,
    description:
      'Only the attempts that succeeded (answered 2xx), or only those that failed; absent: both. Ask for the ' +
      'next page with the same `outcome`.',
  })
  @IsOptional()
  @IsParameterMatching(isDeliveryLogOutcome, `must be one of ${DELIVERY_LOG_OUTCOMES.join(', ')}`)
  outcome?: DeliveryLogOutcome;

  /** `before`: the attempts older than this id; `null` from the newest. */
  toCriteria(): { limit: number; before: number | null; outcome: DeliveryLogOutcome | null } {
    return {
      limit: this.limit === undefined ? DEFAULT_DELIVERIES_LIMIT : Number(this.limit),
      before: this.after === undefined ? null : Number(this.after),
      outcome: this.outcome ?? null,
    };
  }
}
