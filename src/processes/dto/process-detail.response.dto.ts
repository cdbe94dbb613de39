import { ApiExtraModels, ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  CUSTOMS_CHANNELS,
  DECLARATION_TYPES,
  PARTY_ROLES,
  PROCESS_TYPES,
  TRANSPORT_MODES,
  type CustomsChannel,
  type DeclarationType,
  type PartyRole,
  type ProcessType,
  type TransportMode,
} from '../../domain/process.vocabulary.js';
import { nullableRef } from '../../common/openapi/nullable-ref.js';
import { PlaceDto, ProcessSummaryDto } from './process-summary.response.dto.js';

export class PartyDto {
  @ApiProperty({ enum: PARTY_ROLES })
  role!: PartyRole;

  @ApiProperty({ example: 'ACME Importadora Ltda' })
  name!: string;

  @ApiProperty({ type: String, nullable: true, example: '12.345.678/0001-95' })
  taxId!: string | null;

  @ApiProperty({ type: String, nullable: true, example: 'BR', description: 'ISO 3166-1 alpha-2' })
  country!: string | null;
}

export class ShipmentDto {
  @ApiProperty({ enum: PROCESS_TYPES })
  type!: ProcessType;

  @ApiProperty({ enum: TRANSPORT_MODES })
  mode!: TransportMode;

  @ApiProperty({ type: String, nullable: true, example: 'FOB' })
  incoterm!: string | null;

  @ApiProperty({ type: PlaceDto })
  origin!: PlaceDto;

  @ApiProperty({ type: PlaceDto })
  destination!: PlaceDto;

  @ApiProperty({ type: String, format: 'date', nullable: true })
  shipmentDate!: string | null;

  @ApiProperty({ type: String, format: 'date', nullable: true })
  eta!: string | null;

  @ApiProperty({ type: String, format: 'date', nullable: true })
  arrivalDate!: string | null;

  @ApiProperty({ type: String, nullable: true })
  bookingNumber!: string | null;

  @ApiProperty({ type: String, nullable: true })
  masterBill!: string | null;

  @ApiProperty({ type: String, nullable: true })
  houseBill!: string | null;

  @ApiProperty({ type: String, nullable: true })
  cargoDescription!: string | null;

  @ApiProperty({ type: 'integer', format: 'int32', nullable: true })
  packages!: number | null;

  @ApiProperty({ type: Number, nullable: true })
  grossWeightKg!: number | null;

  @ApiProperty({ type: Number, nullable: true })
  volumeM3!: number | null;
}

export class ContainerDto {
  @ApiProperty({ example: 'CSQU3054383' })
  number!: string;

  @ApiProperty({ type: String, nullable: true, example: '40HC' })
  type!: string | null;

  @ApiProperty({ type: String, nullable: true })
  sealNumber!: string | null;

  @ApiProperty({ type: Number, nullable: true })
  grossWeightKg!: number | null;

  @ApiProperty({
    type: String,
    format: 'date',
    nullable: true,
    description:
      'The last day of free time (demurrage starts the day after): imports, once the container arrived',
  })
  freeTimeEndsAt!: string | null;
}

export class VoyageDto {
  @ApiProperty({ type: 'integer', format: 'int32', example: 1 })
  sequence!: number;

  @ApiProperty({ type: String, nullable: true, example: 'MSC AURORA' })
  vessel!: string | null;

  @ApiProperty({ type: String, nullable: true })
  voyageNumber!: string | null;

  @ApiProperty({ type: String, nullable: true })
  carrier!: string | null;

  @ApiProperty({ type: PlaceDto })
  loadPort!: PlaceDto;

  @ApiProperty({ type: PlaceDto })
  dischargePort!: PlaceDto;

  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  etd!: string | null;

  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  atd!: string | null;

  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  eta!: string | null;

  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  ata!: string | null;
}

export const ENRICHMENT_STATUSES = ['FRESH', 'CACHED', 'STALE'] as const;
export type EnrichmentStatus = (typeof ENRICHMENT_STATUSES)[number];

export class EnrichmentDto {
  @ApiProperty({
    enum: ENRICHMENT_STATUSES,
    description:
      '`FRESH`: fetched from the operations system for this request; `CACHED`: a copy within the fresh TTL; ' +
      '`STALE`: the operations system failed and a copy younger than the stale TTL was served',
  })
  status!: EnrichmentStatus;

  @ApiProperty({ format: 'date-time', description: 'When the operations system answered' })
  fetchedAt!: string;
}

export class CeMercanteDto {
  @ApiProperty({ example: '152605012345678', pattern: '^\\d{15}$' })
  master!: string;

  @ApiProperty({ type: String, nullable: true, example: '152605012345679', pattern: '^\\d{15}$' })
  house!: string | null;
}

@ApiExtraModels(CeMercanteDto)
export class CustomsDto {
  @ApiProperty({ enum: DECLARATION_TYPES, description: '`DI` or `DUIMP` for imports, `DUE` for exports' })
  declarationType!: DeclarationType;

  @ApiProperty({
    example: '26BR0000123456-7',
    description: 'As Siscomex writes it: DI `yy/nnnnnnn-d`; DUIMP and DU-E `yyBRnnnnnnnnnn-d`',
  })
  declarationNumber!: string;

  @ApiProperty({ format: 'date-time' })
  registeredAt!: string;

  @ApiProperty({
    enum: [...CUSTOMS_CHANNELS, null],
    nullable: true,
    description:
      'Parametrisation channel (`GREEN` automatic clearance, `YELLOW` document review, `RED` document review and ' +
      'physical inspection, `GRAY` special anti-fraud procedure); null before assignment. Always `summary.customsChannel`.',
  })
  channel!: CustomsChannel | null;

  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  channelAssignedAt!: string | null;

  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  clearedAt!: string | null;

  @ApiProperty({ ...nullableRef(CeMercanteDto), description: 'Sea imports only; `null` otherwise' })
  ceMercante!: CeMercanteDto | null;
}

export class EtaRecordDto {
  @ApiProperty({
    type: String,
    format: 'date',
    nullable: true,
    example: '2026-03-25',
    description: 'The ETA as recorded; null when the operations system withdrew it',
  })
  eta!: string | null;

  @ApiProperty({
    format: 'date-time',
    example: '2026-02-20T10:05:00Z',
    description: 'When the service recorded it',
  })
  recordedAt!: string;
}

export class ProcessDetailResponseDto extends ProcessSummaryDto {
  @ApiProperty({ type: [PartyDto] })
  parties!: PartyDto[];

  @ApiProperty({ type: ShipmentDto })
  shipment!: ShipmentDto;

  @ApiPropertyOptional({ type: [ContainerDto], description: 'Absent when the operations system has none' })
  containers?: ContainerDto[];

  @ApiPropertyOptional({ type: [VoyageDto], description: 'Absent when the operations system has none' })
  voyages?: VoyageDto[];

  @ApiPropertyOptional({
    type: CustomsDto,
    description:
      'The customs declaration; absent until one is registered. Its instants match the customs events of `follow`.',
  })
  customs?: CustomsDto;

  @ApiProperty({
    type: [EtaRecordDto],
    description:
      'Every ETA the service has recorded for the process, oldest first (`[]` when it never had one): the first is ' +
      '`summary.originalEta`, the last `summary.eta`',
  })
  etaHistory!: EtaRecordDto[];

  @ApiProperty({ type: EnrichmentDto })
  enrichment!: EnrichmentDto;
}
