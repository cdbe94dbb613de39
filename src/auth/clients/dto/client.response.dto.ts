import { ApiProperty } from '@nestjs/swagger';
import { SCOPE_NAMES, type Scope } from '../../../domain/scopes.js';

export class ClientResponseDto {
  @ApiProperty({ format: 'uuid' })
  id!: string;

  @ApiProperty({ example: 'SAP production', maxLength: 128 })
  name!: string;

  @ApiProperty({
    description: 'What the system sends as `client_id` to `POST /api/oauth/token`',
    pattern: '^plc_[A-Za-z0-9_-]{22}$',
    example: 'plc_8Zq3v1Xw0bT4nYc2LmQa9d',
  })
  clientId!: string;

  @ApiProperty({ enum: SCOPE_NAMES, isArray: true, uniqueItems: true, example: ['processes:read'] })
  scopes!: Scope[];

  @ApiProperty({ format: 'date-time' })
  createdAt!: string;

  @ApiProperty({
    type: 'string',
    format: 'date-time',
    nullable: true,
    description: 'When it last got a token; null before its first',
  })
  lastUsedAt!: string | null;
}

export class ClientListResponseDto {
  @ApiProperty({ type: [ClientResponseDto], maxItems: 10 })
  data!: ClientResponseDto[];
}

const SECRET_DOC = {
  description:
    'What the system sends as `client_secret`: shown only here, stored by the service as a hash. Keep it in ' +
    'the system’s secret store.',
  pattern: '^pls_[A-Za-z0-9_-]{43}$',
  example: 'pls_3q2-7wEyq0cS1nV9fXbJ4kR8tLmZ6aH5dG2pU0oYiWe',
};

export class CreatedClientResponseDto extends ClientResponseDto {
  @ApiProperty(SECRET_DOC)
  clientSecret!: string;
}

export class ClientSecretResponseDto {
  @ApiProperty({
    ...SECRET_DOC,
    description: `${SECRET_DOC.description} The secret it replaces keeps working for 24 hours.`,
  })
  clientSecret!: string;
}
