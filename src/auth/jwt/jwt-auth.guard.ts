import { ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AuthGuard } from '@nestjs/passport';
import type { Request } from 'express';
import type { AuthenticatedUser } from '../../domain/authenticated-user.js';
import { IS_PUBLIC } from '../../common/http/public.decorator.js';
import { UserAccessService } from '../users/user-access.service.js';
import { bearerTokenOf } from './bearer-token.js';
import { unauthorized } from './unauthorized.js';
import { VerifiedTokens } from './verified-tokens.js';

/**
 * The global guard: every route needs a valid bearer token unless marked {@link Public}. A token
 * the JWT strategy verified before is taken from {@link VerifiedTokens} while it has not expired;
 * its subject is resolved to a live user on every request all the same, so a disabled user is
 * refused as soon as without the shortcut. Any other token goes through passport and the strategy.
 */
@Injectable()
export class JwtAuthGuard extends AuthGuard('jwt') {
  constructor(
    private readonly reflector: Reflector,
    private readonly verifiedTokens: VerifiedTokens,
    private readonly access: UserAccessService,
  ) {
    super();
  }

  override async canActivate(context: ExecutionContext): Promise<boolean> {
    const isPublic = this.reflector.getAllAndOverride<boolean | undefined>(IS_PUBLIC, [
      context.getHandler(),
      context.getClass(),
    ]);
    if (isPublic === true) return true;
    const request = context.switchToHttp().getRequest<Request & { user?: AuthenticatedUser }>();
    const token = bearerTokenOf(request);
    const subject = token === null ? undefined : this.verifiedTokens.subjectOf(token, Date.now());
    if (subject === undefined) return (await super.canActivate(context)) as boolean;
    const user = await this.access.resolve(subject);
    if (user === null) throw unauthorized(true);
    request.user = user;
    return true;
  }

  override handleRequest<TUser = AuthenticatedUser>(
    error: unknown,
    user: TUser | false,
    _info: unknown,
    context: ExecutionContext,
  ): TUser {
    if (error === null && user !== false && user !== undefined && user !== null) return user;
    const request = context.switchToHttp().getRequest<Request>();
    throw unauthorized(request.headers.authorization !== undefined, error);
  }
}
