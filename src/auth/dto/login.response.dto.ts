import { ApiProperty } from '@nestjs/swagger';

export class LoginResponseDto {
  @ApiProperty({ description: 'HS256 JWT to send as `Authorization: Bearer <accessToken>`' })
  accessToken!: string;

  @ApiProperty({ enum: ['Bearer'] })
  tokenType!: 'Bearer';

  @ApiProperty({
    type: 'integer',
    format: 'int32',
    description: 'Seconds until the token expires',
    example: 3600,
  })
  expiresIn!: number;
}
