import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsIn,
  IsISO8601,
  IsObject,
  IsString,
  Matches,
  ValidateNested,
} from 'class-validator';
import { NUMERO_PATTERN } from '../../domain/process.vocabulary.js';

export const PROCESSES_CHANGED = 'processes.changed';

class ProcessesChangedData {
  @IsArray()
  @ArrayMaxSize(1000)
  @IsString({ each: true })
  @Matches(NUMERO_PATTERN, { each: true, message: 'each value in numeros must be a process numero' })
  numeros!: string[];
}

/** What the operations system sends when processes changed: a hint to sync now. */
export class ProcessesChangedNotification {
  @IsIn([PROCESSES_CHANGED])
  type!: typeof PROCESSES_CHANGED;

  @IsISO8601({ strict: true })
  timestamp!: string;

  @IsObject()
  @ValidateNested()
  @Type(() => ProcessesChangedData)
  data!: ProcessesChangedData;
}
