import { ApiProperty } from '@nestjs/swagger';
import { IsDefined, IsString, Length, Matches } from 'class-validator';

/** C0 controls and DEL: never part of a user name (a NUL would even reach PostgreSQL as an error). */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const NO_CONTROL_CHARACTERS = /^[^\x00-\x1f\x7f]*$/;

export class LoginRequestDto {
  @ApiProperty({ example: 'acme', minLength: 1, maxLength: 128, pattern: '^[^\\x00-\\x1f\\x7f]*$' })
  // class-validator checks these bottom-up and reports the first that fails.
  @Matches(NO_CONTROL_CHARACTERS, { message: 'must not contain control characters' })
  @Length(1, 128)
  @IsString()
  @IsDefined({ message: 'is required' })
  username!: string;

  @ApiProperty({ example: 'acme-demo-2026', minLength: 1, maxLength: 1024, format: 'password' })
  @Length(1, 1024)
  @IsString()
  @IsDefined({ message: 'is required' })
  password!: string;
}
