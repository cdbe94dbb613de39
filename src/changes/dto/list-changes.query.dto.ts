import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional } from 'class-validator';
import {
  IsIntegerParameter,
  IsNotWith,
  IsParameterMatching,
  isInstant,
} from '../../common/validation/query-parameters.js';
import { isCursor } from '../change-cursor.js';
import type { FeedStart } from '../changes.service.js';

export const DEFAULT_CHANGES_LIMIT = 100;

/**
 * Where a reading of the feed starts; both absent: at the oldest retained change (or, for a stream, the end).
 * No examples: a cursor or an instant only makes sense on the feed that gave it, and Swagger UI's
 * "Try it out" would send one that is not (an instant past retention, a cursor and an instant both).
 */
export class ChangesStartQueryDto {
  @ApiPropertyOptional({
    description: 'A cursor from an earlier answer (`next`, or an item’s `cursor`): changes recorded after it',
    pattern: '^[A-Za-z0-9_-]{16}$',
    maxLength: 16,
  })
  @IsOptional()
  @IsParameterMatching(isCursor, 'must be a cursor from an earlier answer (its next, or an item’s cursor)')
  after?: string;

  @ApiPropertyOptional({
    description: 'An RFC 3339 instant (`2026-03-14T12:00:00Z`): changes recorded at or after it. Not with `after`.',
    format: 'date-time',
    maxLength: 35,
  })
  @IsOptional()
  @IsParameterMatching(isInstant, 'must be an RFC 3339 instant with an offset (2026-03-14T12:00:00Z)')
  @IsNotWith('after')
  since?: string;

  /** Where the reading starts, in the feed's terms. */
  toStart(): FeedStart {
    return { after: this.after, since: this.since };
  }
}

/** `GET /api/changes` parameters. */
export class ListChangesQueryDto extends ChangesStartQueryDto {
  @ApiPropertyOptional({
    type: 'integer',
    format: 'int32',
    minimum: 1,
    maximum: 500,
    default: DEFAULT_CHANGES_LIMIT,
    example: DEFAULT_CHANGES_LIMIT,
    description: 'How many changes at most',
  })
  @IsOptional()
  @IsIntegerParameter(1, 500)
  limit?: string;

  /** The page asked for: where it starts and how many changes at most. */
  toCriteria(): { start: FeedStart; limit: number } {
    return {
      start: this.toStart(),
      limit: this.limit === undefined ? DEFAULT_CHANGES_LIMIT : Number(this.limit),
    };
  }
}
