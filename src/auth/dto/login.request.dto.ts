import { ApiProperty } from '@nestjs/swagger';
import { IsString, Length } from 'class-validator';

export class LoginRequestDto {
  @ApiProperty({ example: 'acme', minLength: 1, maxLength: 128 })
  @IsString()
  @Length(1, 128)
  username!: string;

  @ApiProperty({ example: 'acme-demo-2026', minLength: 1, maxLength: 1024, format: 'password' })
  @IsString()
  @Length(1, 1024)
  password!: string;
}
