import { ApiProperty } from '@nestjs/swagger';
import { IsDefined, IsString, Length } from 'class-validator';

/** The body of `POST /api/auth/refresh` and `POST /api/auth/logout`. */
export class RefreshTokenRequestDto {
  @ApiProperty({
    description: 'The refresh token of the last answer of `login` or `refresh`',
    example: 'q3Z8v0yXb7cW1nHk2mJp4sLr6tUe9aDf0gBi5oCx7Qw',
    minLength: 1,
    maxLength: 256,
  })
  // class-validator checks these bottom-up and reports the first that fails.
  @Length(1, 256)
  @IsString()
  @IsDefined({ message: 'is required' })
  refreshToken!: string;
}
