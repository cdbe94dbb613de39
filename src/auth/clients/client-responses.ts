import { toUtcInstant } from '../../common/instant.js';
import type { ClientApplication } from './client-application.js';
import type { ClientResponseDto } from './dto/client.response.dto.js';

export function clientResponse(client: ClientApplication): ClientResponseDto {
  return {
    id: client.id,
    name: client.name,
    clientId: client.clientId,
    scopes: client.scopes,
    createdAt: toUtcInstant(client.createdAt),
    lastUsedAt: client.lastUsedAt === null ? null : toUtcInstant(client.lastUsedAt),
  };
}
