import { Injectable } from '@nestjs/common';
import type { Visibility } from '../domain/authenticated-user.js';
import { Clock } from '../common/clock.js';
import { JsonText } from '../common/http/json-text.js';
import { InvalidRequestException, ProblemException } from '../common/problems/problem.exception.js';
import { PROBLEM_TYPES, type FieldError } from '../common/problems/problem-types.js';
import { AppConfig } from '../config/app.config.js';
import { decodeCursor, encodeCursor } from './change-cursor.js';
import { retainedSince } from './change-retention.js';
import { ChangesRepository, type FeedExtent } from './changes.repository.js';
import type { ChangesPageResponseDto } from './dto/change.response.dto.js';

/** Where to start reading: after a cursor, from an instant, or (neither) at one end of the feed. */
export interface FeedStart {
  after?: string;
  since?: string;
}

/** Where a cursor came from, for the 400 that refuses it. */
export type CursorSource = Pick<FieldError, 'in' | 'name'>;

const AFTER_PARAMETER: CursorSource = { in: 'query', name: 'after' };

/**
 * The change feed as clients read it: positions behind opaque cursors, the retention window
 * enforced as 410, visibility applied by the repository.
 */
@Injectable()
export class ChangesService {
  constructor(
    private readonly repository: ChangesRepository,
    private readonly config: AppConfig,
    private readonly clock: Clock,
  ) {}

  /**
   * The position a stream starts after. With neither `after` nor `since` it starts at the current
   * end of the feed. A cursor or instant older than the retained changes is 410; a cursor beyond
   * the end of the feed (from a database the feed was since reset in, say) is 400, naming `source`.
   */
  async streamStart(start: FeedStart, source: CursorSource = AFTER_PARAMETER): Promise<number> {
    const position = await this.explicitStart(start);
    const extent = await this.repository.extent();
    if (position === null) return extent.lastPosition;
    if (start.after !== undefined) assertWithin(extent, position, source);
    return position;
  }

  /** A page after `start`, or from the oldest retained change; its extent is read with it. */
  async page(
    start: FeedStart,
    limit: number,
    visibility: Visibility,
  ): Promise<JsonText<ChangesPageResponseDto>> {
    const position = await this.explicitStart(start);
    const page = await this.repository.page(position, limit, visibility);
    if (position !== null && start.after !== undefined) assertWithin(page.extent, position, AFTER_PARAMETER);
    return JsonText.object<ChangesPageResponseDto>({
      data: page.items,
      next: encodeCursor(page.lastPosition ?? position ?? page.extent.prunedThrough),
      hasMore: page.hasMore,
    });
  }

  /** The position `after` or `since` stands for, or null with neither. */
  private async explicitStart(start: FeedStart): Promise<number | null> {
    if (start.since !== undefined) {
      if (Date.parse(start.since) < retainedSince(this.config, this.clock).getTime()) throw cursorExpired();
      return this.repository.positionBefore(new Date(start.since));
    }
    // The query DTO only lets well-formed cursors through.
    return start.after === undefined ? null : (decodeCursor(start.after) ?? 0);
  }
}

function assertWithin(extent: FeedExtent, position: number, source: CursorSource): void {
  if (position > extent.lastPosition) {
    throw new InvalidRequestException([
      { ...source, message: 'is beyond the end of the feed: use a cursor from an earlier answer' },
    ]);
  }
  if (position < extent.prunedThrough) throw cursorExpired();
}

function cursorExpired(): ProblemException {
  return new ProblemException(PROBLEM_TYPES.cursorExpired, {
    detail:
      'Changes before this point are no longer kept: read the list again, then follow the feed from a fresh cursor',
  });
}
