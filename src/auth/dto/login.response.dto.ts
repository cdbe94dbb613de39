import { ApiProperty } from '@nestjs/swagger';

export class LoginResponseDto {
  @ApiProperty({ description: 'HS256 JWT to send as `Authorization: Bearer <accessToken>`' })
  accessToken!: string;

  @ApiProperty({ enum: ['Bearer'] })
  tokenType!: 'Bearer';

  @ApiProperty({
    type: 'integer',
    format: 'int32',
    description: 'Seconds until the access token expires',
    example: 900,
  })
  expiresIn!: number;

  @ApiProperty({
    description:
      'Opaque, single-use: exchange it at `POST /api/auth/refresh` for a new pair before the access token ' +
      'expires; end the sign-in with `POST /api/auth/logout`',
    example: 'q3Z8v0yXb7cW1nHk2mJp4sLr6tUe9aDf0gBi5oCx7Qw',
  })
  refreshToken!: string;

  @ApiProperty({
    type: 'integer',
    format: 'int32',
    description: 'Seconds until the sign-in ends, however often it is refreshed; then sign in again',
    example: 604800,
  })
  refreshExpiresIn!: number;
}
