import { ApiProperty } from '@nestjs/swagger';
import { Matches } from 'class-validator';

export class ProcessNumeroParamsDto {
  @ApiProperty({
    description: 'The process number, 1-40 characters of `[A-Za-z0-9._-]`, matched case-insensitively',
    example: 'IMP-2026-000123',
    pattern: '^[A-Za-z0-9._-]{1,40}$',
  })
  @Matches(/^[A-Za-z0-9._-]{1,40}$/, { message: 'must be 1-40 characters of A-Z, a-z, 0-9, ".", "_" or "-"' })
  numero!: string;
}
