import { Injectable } from '@nestjs/common';
import type { AuthenticatedUser } from '../../domain/authenticated-user.js';
import { Clock } from '../../common/clock.js';
import { ProblemException } from '../../common/problems/problem.exception.js';
import { PROBLEM_TYPES } from '../../common/problems/problem-types.js';
import { ProcessVisibility } from '../../visibility/process-visibility.js';
import { CLIENTS_PER_USER, PREVIOUS_SECRET_VALID_MS, type ClientApplication } from './client-application.js';
import { ClientAccessService } from './client-access.service.js';
import { newClientId, newClientSecret, secretHashOf } from './client-credentials.js';
import { ClientsRepository } from './clients.repository.js';
import type { CreateClientRequestDto, UpdateClientRequestDto } from './dto/client.request.dto.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Client applications as their owners manage them. A client sees what its creator saw at creation;
 * another user's client is the same 404 as a missing one. A secret is returned once, when made.
 */
@Injectable()
export class ClientsService {
  constructor(
    private readonly repository: ClientsRepository,
    private readonly access: ClientAccessService,
    private readonly clock: Clock,
    private readonly visibility: ProcessVisibility,
  ) {}

  async create(
    user: AuthenticatedUser,
    request: CreateClientRequestDto,
  ): Promise<{ client: ClientApplication; clientSecret: string }> {
    const clientSecret = newClientSecret();
    const client = await this.repository.createWithin(CLIENTS_PER_USER, {
      ownerId: user.id,
      clientId: newClientId(),
      name: request.name,
      scopes: request.scopes,
      customerIds: this.visibility.of(user).customerIds,
      secretHash: secretHashOf(clientSecret),
      now: this.clock.now(),
    });
    if (client === null) {
      throw new ProblemException(PROBLEM_TYPES.clientLimitReached, {
        detail: `At most ${CLIENTS_PER_USER} client applications per user: delete one first`,
      });
    }
    return { client, clientSecret };
  }

  list(user: AuthenticatedUser): Promise<ClientApplication[]> {
    return this.repository.listOwned(user.id);
  }

  async get(user: AuthenticatedUser, id: string): Promise<ClientApplication> {
    return found(UUID.test(id) ? await this.repository.findOwned(id, user.id) : null);
  }

  async update(
    user: AuthenticatedUser,
    id: string,
    request: UpdateClientRequestDto,
  ): Promise<ClientApplication> {
    await this.get(user, id);
    const client = found(await this.repository.update(id, user.id, request, this.clock.now()));
    this.access.forget(client.clientId);
    return client;
  }

  async delete(user: AuthenticatedUser, id: string): Promise<void> {
    const client = await this.get(user, id);
    if (!(await this.repository.delete(id, user.id))) throw notFound();
    this.access.forget(client.clientId);
  }

  /** A new secret; the one it replaces keeps working for 24 h beside it. */
  async rotateSecret(user: AuthenticatedUser, id: string): Promise<string> {
    await this.get(user, id);
    const clientSecret = newClientSecret();
    const now = this.clock.now();
    const previousExpiresAt = new Date(now.getTime() + PREVIOUS_SECRET_VALID_MS);
    if (
      !(await this.repository.rotateSecret(id, user.id, secretHashOf(clientSecret), previousExpiresAt, now))
    ) {
      throw notFound();
    }
    return clientSecret;
  }
}

function found(client: ClientApplication | null): ClientApplication {
  if (client === null) throw notFound();
  return client;
}

function notFound(): ProblemException {
  return new ProblemException(PROBLEM_TYPES.notFound, { detail: 'No such client application' });
}
