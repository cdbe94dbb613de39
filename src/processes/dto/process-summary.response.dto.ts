import { ApiProperty } from '@nestjs/swagger';
import { nullableRef } from '../../common/openapi/nullable-ref.js';
import {
  CUSTOMS_CHANNELS,
  FOLLOW_UP_CODES,
  PROCESS_STATUSES,
  PROCESS_TYPES,
  TRANSPORT_MODES,
  type CustomsChannel,
  type FollowUpCode,
  type ProcessStatus,
  type ProcessType,
  type TransportMode,
} from '../../domain/process.vocabulary.js';

// Response DTOs document the wire shape for OpenAPI and type the plain objects the service
// builds; they are never instantiated (no class-transformer on the response path).

export class PlaceDto {
  @ApiProperty({ example: 'BRSSZ', description: 'UN/LOCODE' })
  code!: string;

  @ApiProperty({ example: 'Santos' })
  name!: string;
}

export class FollowUpEventDto {
  @ApiProperty({ example: 'evt_01HV3K9', description: 'Stable across syncs' })
  id!: string;

  @ApiProperty({ enum: FOLLOW_UP_CODES, example: 'DEPARTED' })
  code!: FollowUpCode;

  @ApiProperty({
    example: 'Navio MSC AURORA partiu de Shanghai',
    description: "The operations system's text",
  })
  description!: string;

  @ApiProperty({ format: 'date-time', example: '2026-02-21T03:00:00Z' })
  occurredAt!: string;

  @ApiProperty(nullableRef(PlaceDto))
  location!: PlaceDto | null;
}

export class CustomerDto {
  @ApiProperty({ example: 'acme' })
  id!: string;

  @ApiProperty({ example: 'ACME Importadora Ltda' })
  name!: string;
}

export class OperationalSummaryDto {
  @ApiProperty({ enum: PROCESS_TYPES })
  type!: ProcessType;

  @ApiProperty({ enum: TRANSPORT_MODES })
  mode!: TransportMode;

  @ApiProperty({ type: CustomerDto })
  customer!: CustomerDto;

  @ApiProperty({ type: String, nullable: true, example: 'PO-4471' })
  customerReference!: string | null;

  @ApiProperty({ type: PlaceDto })
  origin!: PlaceDto;

  @ApiProperty({ type: PlaceDto })
  destination!: PlaceDto;

  @ApiProperty({
    type: String,
    format: 'date',
    nullable: true,
    description: 'Date of embarkation (embarque)',
  })
  shipmentDate!: string | null;

  @ApiProperty({ type: String, format: 'date', nullable: true, description: 'Estimated time of arrival' })
  eta!: string | null;

  @ApiProperty({
    type: String,
    format: 'date',
    nullable: true,
    example: '2026-03-20',
    description: 'The first ETA the service saw for the process; null while it never had one',
  })
  originalEta!: string | null;

  @ApiProperty({
    type: 'integer',
    format: 'int32',
    nullable: true,
    example: 5,
    description:
      '`eta` − `originalEta` in whole days: positive when the arrival slipped, negative when it moved earlier; null when either is null',
  })
  etaDelayDays!: number | null;

  @ApiProperty({ type: String, format: 'date', nullable: true })
  arrivalDate!: string | null;

  @ApiProperty({ type: [String], example: ['CSQU3054383'], description: 'ISO 6346 container numbers' })
  containers!: string[];

  @ApiProperty({
    enum: [...CUSTOMS_CHANNELS, null],
    nullable: true,
    description: '`null` until customs assigns a channel',
  })
  customsChannel!: CustomsChannel | null;

  @ApiProperty({
    type: String,
    format: 'date',
    nullable: true,
    description:
      'The earliest last day of free time of the containers (imports, once arrived; demurrage starts the day after); null otherwise',
  })
  freeTimeEndsAt!: string | null;

  @ApiProperty({ type: 'integer', format: 'int32', example: 12, description: 'Number of follow-up events' })
  followCount!: number;
}

export class ProcessSummaryDto {
  @ApiProperty({ example: 'IMP-2026-000123' })
  numero!: string;

  @ApiProperty({ enum: PROCESS_STATUSES })
  status!: ProcessStatus;

  @ApiProperty({
    format: 'date-time',
    description: 'Last time anything of the process changed (atualização)',
  })
  updatedAt!: string;

  @ApiProperty({ type: OperationalSummaryDto })
  summary!: OperationalSummaryDto;

  @ApiProperty({
    ...nullableRef(FollowUpEventDto),
    description: 'The last element of `follow`; `null` when there is none',
  })
  lastFollow!: FollowUpEventDto | null;

  @ApiProperty({
    type: [FollowUpEventDto],
    description: 'Every follow-up event, ordered by `occurredAt` then `id`',
  })
  follow!: FollowUpEventDto[];
}

export class PageMetaDto {
  @ApiProperty({ type: 'integer', format: 'int64', example: 1 })
  page!: number;

  @ApiProperty({ type: 'integer', format: 'int32', example: 20 })
  pageSize!: number;

  @ApiProperty({ type: 'integer', format: 'int32', example: 134 })
  totalItems!: number;

  @ApiProperty({ type: 'integer', format: 'int32', example: 7 })
  totalPages!: number;
}

export class ProcessListResponseDto {
  @ApiProperty({ type: [ProcessSummaryDto] })
  data!: ProcessSummaryDto[];

  @ApiProperty({ type: PageMetaDto })
  meta!: PageMetaDto;
}
