import { Injectable } from '@nestjs/common';
import type { Visibility } from '../auth/authenticated-user.js';
import { Clock } from '../common/clock.js';
import { ProblemException } from '../common/problems/problem.exception.js';
import { PROBLEM_TYPES } from '../common/problems/problem-types.js';
import { AppConfig } from '../config/app.config.js';
import { decodeCursor, encodeCursor } from './change-cursor.js';
import { retainedSince } from './change-retention.js';
import { ChangesRepository, type ChangeRow } from './changes.repository.js';
import type { ChangeDto, ChangesPageResponseDto } from './dto/change.response.dto.js';

/** Where to start reading: after a cursor, from an instant, or (neither) at one end of the feed. */
export interface FeedStart {
  after?: string;
  since?: string;
}

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
   * The position a reading starts after. With neither `after` nor `since`, the page starts at the
   * oldest retained change and a stream at the current end. A cursor or instant older than the
   * retained changes (or a cursor from a database the feed was since reset in) is 410.
   */
  async startPosition(start: FeedStart, whenUnset: 'oldest' | 'end'): Promise<number> {
    if (start.since !== undefined) {
      if (Date.parse(start.since) < retainedSince(this.config, this.clock).getTime()) throw cursorExpired();
      return this.repository.positionBefore(new Date(start.since));
    }
    const extent = await this.repository.extent();
    if (start.after === undefined) return whenUnset === 'oldest' ? extent.prunedThrough : extent.lastPosition;
    // The query DTO only lets well-formed cursors through.
    const position = decodeCursor(start.after) ?? 0;
    if (position < extent.prunedThrough || position > extent.lastPosition) throw cursorExpired();
    return position;
  }

  async page(start: FeedStart, limit: number, visibility: Visibility): Promise<ChangesPageResponseDto> {
    const position = await this.startPosition(start, 'oldest');
    // One more than asked tells whether more are there.
    const rows = await this.repository.after(position, limit + 1, visibility);
    const data = rows.slice(0, limit).map(toChangeDto);
    const last = rows[Math.min(rows.length, limit) - 1];
    return {
      data,
      next: encodeCursor(last?.position ?? position),
      hasMore: rows.length > limit,
    };
  }
}

/** A stored change as the API shows it. */
export function toChangeDto(row: ChangeRow): ChangeDto {
  return {
    cursor: encodeCursor(row.position),
    recordedAt: row.recordedAt,
    kind: row.kind,
    numero: row.numero,
    status: row.status as ChangeDto['status'],
    updatedAt: row.updatedAt,
    ...row.details,
  };
}

function cursorExpired(): ProblemException {
  return new ProblemException(PROBLEM_TYPES.cursorExpired, {
    detail:
      'Changes before this point are no longer kept: read the list again, then follow the feed from a fresh cursor',
  });
}
