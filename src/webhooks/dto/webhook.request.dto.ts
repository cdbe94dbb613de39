import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  ArrayMinSize,
  ArrayUnique,
  IsArray,
  IsDefined,
  IsIn,
  IsOptional,
  IsString,
  Matches,
  MaxLength,
  ValidateIf,
} from 'class-validator';
import { IsNotWith, IsParameterMatching, isInstant } from '../../common/validation/query-parameters.js';
import { CHANGE_KINDS, type ChangeKind } from '../../domain/change-kinds.js';
import { isCursor } from '../../changes/change-cursor.js';
import { MAX_WEBHOOK_URL_LENGTH } from '../security/webhook-target-policy.js';

export const MAX_DESCRIPTION_LENGTH = 256;
/** C0 controls and DEL: a description is one line of text. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const NO_CONTROL_CHARACTERS = /^[^\x00-\x1f\x7f]*$/;

/** Present (not undefined); `null` is then refused by the validators that follow. */
const isGiven = (_object: object, value: unknown): boolean => value !== undefined;

/** A webhook's description: optional, nullable, printable characters only. */
function DescriptionProperty(example?: string): PropertyDecorator {
  return applyDecorators(
    ApiPropertyOptional({
      type: 'string',
      nullable: true,
      maxLength: MAX_DESCRIPTION_LENGTH,
      pattern: '^[^\\x00-\\x1f\\x7f]*$',
      ...(example !== undefined && { example }),
    }),
    IsOptional(),
    IsString(),
    MaxLength(MAX_DESCRIPTION_LENGTH),
    Matches(NO_CONTROL_CHARACTERS, { message: 'must not contain control characters' }),
  );
}

/** The change kinds a webhook delivers: a non-empty set of known kinds, or null for every kind. */
function KindsProperty(description: string): PropertyDecorator {
  return applyDecorators(
    ApiPropertyOptional({
      enum: CHANGE_KINDS,
      isArray: true,
      nullable: true,
      minItems: 1,
      maxItems: CHANGE_KINDS.length,
      uniqueItems: true,
      description,
    }),
    IsOptional(),
    IsArray(),
    ArrayMinSize(1),
    ArrayMaxSize(CHANGE_KINDS.length),
    ArrayUnique(),
    IsIn(CHANGE_KINDS, { each: true, message: `each must be one of ${CHANGE_KINDS.join(', ')}` }),
  );
}

/** Where delivery starts or goes back to: after a cursor, or from an instant. */
export class WebhookStartRequestDto {
  @ApiPropertyOptional({
    description: 'A cursor of the change feed: delivery goes on with the changes after it',
    pattern: '^[A-Za-z0-9_-]{16}$',
    maxLength: 16,
  })
  @IsOptional()
  @IsParameterMatching(isCursor, 'must be a cursor of the change feed (a change’s cursor, or a page’s next)')
  @IsString()
  after?: string;

  @ApiPropertyOptional({
    description:
      'An RFC 3339 instant: delivery goes on with the changes recorded at or after it. Not with `after`.',
    format: 'date-time',
    maxLength: 35,
  })
  @IsOptional()
  @IsParameterMatching(isInstant, 'must be an RFC 3339 instant with an offset (2026-03-14T12:00:00Z)')
  @IsNotWith('after')
  @IsString()
  since?: string;
}

export class CreateWebhookRequestDto extends WebhookStartRequestDto {
  @ApiProperty({
    description:
      'Where deliveries are POSTed: an `https://` URL (`http://` only where the service allows it), whose host ' +
      'resolves to public addresses only (unless the service allows private ones)',
    format: 'uri',
    maxLength: MAX_WEBHOOK_URL_LENGTH,
    example: 'https://erp.example.com/hooks/process-lookup',
  })
  // class-validator checks these bottom-up and reports the first that fails: the type first.
  @MaxLength(MAX_WEBHOOK_URL_LENGTH)
  @IsString()
  @IsDefined({ message: 'is required' })
  url!: string;

  @DescriptionProperty('ERP import')
  description?: string | null;

  @KindsProperty('The kinds of change delivered; absent or null: every kind (those added later included)')
  kinds?: ChangeKind[] | null;
}

export const UPDATABLE_STATUSES = ['ACTIVE', 'PAUSED'] as const;

export class UpdateWebhookRequestDto {
  @ApiPropertyOptional({
    description: 'Where deliveries are POSTed; checked as at creation',
    format: 'uri',
    maxLength: MAX_WEBHOOK_URL_LENGTH,
  })
  @ValidateIf(isGiven)
  @MaxLength(MAX_WEBHOOK_URL_LENGTH)
  @IsString()
  url?: string;

  @DescriptionProperty()
  description?: string | null;

  @KindsProperty('The kinds of change delivered; null: every kind')
  kinds?: ChangeKind[] | null;

  @ApiPropertyOptional({
    enum: UPDATABLE_STATUSES,
    description:
      '`PAUSED` stops deliveries at once, but for an attempt already under way (nothing is lost: they resume from ' +
      'the same point); `ACTIVE` resumes a paused or ' +
      'disabled subscription where it stopped, its next attempt due at once',
  })
  @ValidateIf(isGiven)
  @IsIn(UPDATABLE_STATUSES, { message: `must be one of ${UPDATABLE_STATUSES.join(', ')}` })
  status?: (typeof UPDATABLE_STATUSES)[number];
}

export class ReplayWebhookRequestDto extends WebhookStartRequestDto {}
