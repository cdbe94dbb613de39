import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional } from 'class-validator';
import { IsIntegerParameter, IsParameterMatching } from '../../common/validation/query-parameters.js';

export const DEFAULT_DELIVERIES_LIMIT = 20;

const DELIVERY_ID = /^[1-9]\d{0,15}$/;

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
    example: '1042',
  })
  @IsOptional()
  @IsParameterMatching((value) => DELIVERY_ID.test(value), 'must be the next of an earlier page')
  after?: string;
}
