import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional } from 'class-validator';
import { DAY_MS } from '../../common/instant.js';
import { isValidContainerNumber, normalizeContainerNumber } from '../../common/iso6346.js';
import {
  IsDateParameter,
  IsInstantOrDateParameter,
  IsIntegerParameter,
  IsListOfParameter,
  IsOneOfParameter,
  IsParameterMatching,
  IsRangeEnd,
  isCalendarDate,
  isInstant,
  listItems,
} from '../../common/validation/query-parameters.js';
import { PROCESS_SORTS, type ProcessListCriteria, type ProcessSort } from '../process-list.criteria.js';
import {
  CUSTOMS_CHANNEL_FILTERS,
  PROCESS_STATUSES,
  PROCESS_TYPES,
  TRANSPORT_MODES,
} from '../../domain/process.vocabulary.js';

const isInstantOrDate = (value: string) => isCalendarDate(value) || isInstant(value);
/** A date bound stands for the whole UTC day; an instant for itself. */
const rangeStart = (value: string) => Date.parse(isCalendarDate(value) ? `${value}T00:00:00Z` : value);
const rangeEndExclusive = (value: string) =>
  isCalendarDate(value) ? Date.parse(`${value}T00:00:00Z`) + DAY_MS : Date.parse(value) + 1;

/**
 * `GET /api/processes` parameters, kept as the raw strings the client sent and
 * validated strictly; {@link toCriteria} turns them into typed criteria.
 */
export class ListProcessesQueryDto {
  @ApiPropertyOptional({
    type: 'integer',
    format: 'int64',
    minimum: 1,
    default: 1,
    example: 1,
    description: 'Page number, from 1',
  })
  @IsOptional()
  @IsIntegerParameter(1)
  page?: string;

  @ApiPropertyOptional({
    type: 'integer',
    format: 'int32',
    minimum: 1,
    maximum: 100,
    default: 20,
    example: 20,
  })
  @IsOptional()
  @IsIntegerParameter(1, 100)
  pageSize?: string;

  @ApiPropertyOptional({
    description:
      'Statuses to include, case-insensitive: repeated (`status=IN_TRANSIT&status=ARRIVED`), comma-separated (`status=IN_TRANSIT,ARRIVED`) or both',
    type: 'array',
    items: { type: 'string', enum: [...PROCESS_STATUSES] },
    maxItems: PROCESS_STATUSES.length,
  })
  @IsOptional()
  @IsListOfParameter(PROCESS_STATUSES)
  status?: string | string[];

  @ApiPropertyOptional({
    description: 'Process type, case-insensitive (`IMPORT`)',
    enum: PROCESS_TYPES,
  })
  @IsOptional()
  @IsOneOfParameter(PROCESS_TYPES, { ignoreCase: true })
  type?: string;

  @ApiPropertyOptional({
    description:
      'Transport modes to include, case-insensitive: repeated (`mode=SEA&mode=AIR`), comma-separated (`mode=SEA,AIR`) or both',
    type: 'array',
    items: { type: 'string', enum: [...TRANSPORT_MODES] },
    maxItems: TRANSPORT_MODES.length,
  })
  @IsOptional()
  @IsListOfParameter(TRANSPORT_MODES)
  mode?: string | string[];

  @ApiPropertyOptional({
    description:
      'Customs channels to include, case-insensitive: repeated (`customsChannel=RED&customsChannel=NONE`), comma-separated (`customsChannel=RED,NONE`) or both; `NONE` selects processes without an assigned channel',
    type: 'array',
    items: { type: 'string', enum: [...CUSTOMS_CHANNEL_FILTERS] },
    maxItems: CUSTOMS_CHANNEL_FILTERS.length,
  })
  @IsOptional()
  @IsListOfParameter(CUSTOMS_CHANNEL_FILTERS)
  customsChannel?: string | string[];

  @ApiPropertyOptional({
    format: 'date',
    description: 'Inclusive lower bound on `summary.shipmentDate` (`2026-01-01`)',
  })
  @IsOptional()
  @IsDateParameter()
  shipmentFrom?: string;

  @ApiPropertyOptional({
    format: 'date',
    description: 'Inclusive upper bound on `summary.shipmentDate` (`2026-12-31`)',
  })
  @IsOptional()
  @IsDateParameter()
  @IsRangeEnd('shipmentFrom', isCalendarDate, (to, from) => to >= from)
  shipmentTo?: string;

  @ApiPropertyOptional({
    description:
      'Inclusive lower bound on `updatedAt`: an RFC 3339 instant, or a date meaning the start of that UTC day ' +
      '(`2026-03-01`)',
    maxLength: 35,
  })
  @IsOptional()
  @IsInstantOrDateParameter()
  updatedFrom?: string;

  @ApiPropertyOptional({
    description:
      'Inclusive upper bound on `updatedAt`: an RFC 3339 instant, or a date meaning the whole of that UTC day ' +
      '(`2026-03-14T12:00:00Z`)',
    maxLength: 35,
  })
  @IsOptional()
  @IsInstantOrDateParameter()
  @IsRangeEnd('updatedFrom', isInstantOrDate, (to, from) => rangeEndExclusive(to) > rangeStart(from))
  updatedTo?: string;

  @ApiPropertyOptional({
    description:
      'ISO 6346 container number (4 letters, 7 digits, valid check digit: `CSQU3054383`); case, spaces and ' +
      'hyphens ignored',
    maxLength: 32,
  })
  @IsOptional()
  @IsParameterMatching(
    (value) => isValidContainerNumber(normalizeContainerNumber(value)),
    'must be an ISO 6346 container number (4 letters and 7 digits with a valid check digit)',
  )
  container?: string;

  @ApiPropertyOptional({
    format: 'date',
    description: 'Inclusive lower bound on `summary.eta` (arriving from: `2026-03-20`)',
  })
  @IsOptional()
  @IsDateParameter()
  etaFrom?: string;

  @ApiPropertyOptional({
    format: 'date',
    description: 'Inclusive upper bound on `summary.eta` (arriving by: `2026-03-27`)',
  })
  @IsOptional()
  @IsDateParameter()
  @IsRangeEnd('etaFrom', isCalendarDate, (to, from) => to >= from)
  etaTo?: string;

  @ApiPropertyOptional({
    format: 'date',
    description: 'Inclusive lower bound on `summary.freeTimeEndsAt` (`2026-03-20`)',
  })
  @IsOptional()
  @IsDateParameter()
  freeTimeEndsFrom?: string;

  @ApiPropertyOptional({
    format: 'date',
    description:
      'Inclusive upper bound on `summary.freeTimeEndsAt` (free time ending by then, demurrage from the day ' +
      'after: `2026-03-23`)',
  })
  @IsOptional()
  @IsDateParameter()
  @IsRangeEnd('freeTimeEndsFrom', isCalendarDate, (to, from) => to >= from)
  freeTimeEndsTo?: string;

  @ApiPropertyOptional({
    type: 'integer',
    format: 'int32',
    minimum: 1,
    maximum: 365,
    description:
      '`summary.etaDelayDays` at least this: processes whose arrival slipped by this many days or more (`3`)',
  })
  @IsOptional()
  @IsIntegerParameter(1, 365)
  delayedByDays?: string;

  @ApiPropertyOptional({
    enum: PROCESS_SORTS,
    default: '-updatedAt',
    example: '-updatedAt',
    description:
      'Sort order; ties are broken by `numero` ascending; processes without the date sorted by (shipment date, ETA, free-time end) come last either way',
  })
  @IsOptional()
  @IsOneOfParameter(PROCESS_SORTS)
  sort?: string;

  toCriteria(): ProcessListCriteria {
    return {
      page: this.page === undefined ? 1 : Number(this.page),
      pageSize: this.pageSize === undefined ? 20 : Number(this.pageSize),
      statuses: listOf(this.status),
      types: listOf(this.type),
      modes: listOf(this.mode),
      customsChannels: listOf(this.customsChannel),
      shipmentFrom: this.shipmentFrom ?? null,
      shipmentTo: this.shipmentTo ?? null,
      updatedFrom: this.updatedFrom === undefined ? null : new Date(rangeStart(this.updatedFrom)),
      updatedBefore: this.updatedTo === undefined ? null : new Date(rangeEndExclusive(this.updatedTo)),
      container: this.container === undefined ? null : normalizeContainerNumber(this.container),
      etaFrom: this.etaFrom ?? null,
      etaTo: this.etaTo ?? null,
      freeTimeEndsFrom: this.freeTimeEndsFrom ?? null,
      freeTimeEndsTo: this.freeTimeEndsTo ?? null,
      delayedByDays: this.delayedByDays === undefined ? null : Number(this.delayedByDays),
      sort: (this.sort ?? '-updatedAt') as ProcessSort,
    };
  }
}

/** A validated list-valued parameter as its distinct upper-case values; `null` when absent. */
function listOf<T extends string>(value: string | string[] | undefined): T[] | null {
  if (value === undefined) return null;
  return [...new Set(listItems(value).map((item) => item.trim().toUpperCase() as T))];
}
