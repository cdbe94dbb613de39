import { ApiProperty } from '@nestjs/swagger';
import { Matches } from 'class-validator';
import { NUMERO_PATTERN } from '../../domain/process.vocabulary.js';

export const NUMERO_MESSAGE = 'must be 1-40 characters of A-Z, a-z, 0-9, ".", "_" or "-"';

export class ProcessNumeroParamsDto {
  @ApiProperty({
    description: 'The process number, 1-40 characters of `[A-Za-z0-9._-]`, matched case-insensitively',
    example: 'IMP-2026-000003',
    pattern: NUMERO_PATTERN.source,
    maxLength: 40,
  })
  @Matches(NUMERO_PATTERN, { message: NUMERO_MESSAGE })
  numero!: string;
}
