import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { FollowUpEventDto } from '../../processes/dto/process-summary.response.dto.js';
import {
  CUSTOMS_CHANNELS,
  PROCESS_STATUSES,
  type CustomsChannel,
  type ProcessStatus,
} from '../../domain/process.vocabulary.js';
import { CHANGE_KINDS, type ChangeKind } from '../../domain/change-kinds.js';

export class ChangeDto {
  @ApiProperty({
    description:
      'This change’s place in the feed: ask with `after=<cursor>` (or `Last-Event-ID`) to go on after it',
    example: 'AAAAAAAAAQn44-hy',
    maxLength: 16,
  })
  cursor!: string;

  @ApiProperty({
    format: 'date-time',
    example: '2026-03-14T12:00:05Z',
    description: 'When the service recorded it',
  })
  recordedAt!: string;

  @ApiProperty({
    enum: CHANGE_KINDS,
    description:
      '`PROCESS_ADDED` (a process seen the first time), `STATUS_CHANGED` (with `previousStatus`), `FOLLOW_ADDED` and ' +
      '`FOLLOW_REMOVED` (with the event in `follow`, as it was when retracted), `CUSTOMS_CHANGED` (the declaration or ' +
      'its channel; with `customsChannel`), `ETA_CHANGED` (the estimated arrival moved; with `eta`, `previousEta` and ' +
      '`etaDelayDays`), `PROCESS_UPDATED` (any other change of the summary or the detail)',
  })
  kind!: ChangeKind;

  @ApiProperty({ example: 'IMP-2026-000123' })
  numero!: string;

  @ApiProperty({ enum: PROCESS_STATUSES, description: 'The status after the change' })
  status!: ProcessStatus;

  @ApiProperty({ format: 'date-time', description: 'The process’s `updatedAt` after the change' })
  updatedAt!: string;

  @ApiPropertyOptional({ enum: PROCESS_STATUSES, description: '`STATUS_CHANGED` only' })
  previousStatus?: ProcessStatus;

  @ApiPropertyOptional({ type: FollowUpEventDto, description: '`FOLLOW_ADDED` and `FOLLOW_REMOVED` only' })
  follow?: FollowUpEventDto;

  @ApiPropertyOptional({
    enum: [...CUSTOMS_CHANNELS, null],
    nullable: true,
    description: '`CUSTOMS_CHANGED` only: the channel after the change, null while none is assigned',
  })
  customsChannel?: CustomsChannel | null;

  @ApiPropertyOptional({
    type: String,
    format: 'date',
    nullable: true,
    example: '2026-03-28',
    description: '`ETA_CHANGED` only: the ETA after the change (`summary.eta`), null when withdrawn',
  })
  eta?: string | null;

  @ApiPropertyOptional({
    type: String,
    format: 'date',
    nullable: true,
    example: '2026-03-25',
    description: '`ETA_CHANGED` only: the ETA before the change, null when there was none',
  })
  previousEta?: string | null;

  @ApiPropertyOptional({
    type: 'integer',
    format: 'int32',
    nullable: true,
    example: 3,
    description:
      '`ETA_CHANGED` only: the ETA after the change minus the original ETA, in whole days (`summary.etaDelayDays`)',
  })
  etaDelayDays?: number | null;
}

export class ChangesPageResponseDto {
  @ApiProperty({ type: [ChangeDto] })
  data!: ChangeDto[];

  @ApiProperty({
    maxLength: 16,
    description:
      'Always present: the cursor to ask with next time (after the last item; the position asked from when `data` is empty)',
  })
  next!: string;

  @ApiProperty({ description: 'More changes are there already: ask again at once with `next`' })
  hasMore!: boolean;
}
