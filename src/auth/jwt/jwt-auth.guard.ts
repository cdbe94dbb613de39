import { ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AuthGuard } from '@nestjs/passport';
import type { Request } from 'express';
import type { AuthenticatedUser } from '../../domain/authenticated-user.js';
import { IS_PUBLIC } from '../../common/http/public.decorator.js';
import type { GrantedRequest } from '../access/access-grant.js';
import { AccessResolver } from '../access/access-resolver.js';
import { ProblemException } from '../../common/problems/problem.exception.js';
import { bearerTokenOf } from './bearer-token.js';
import { unauthorized } from './unauthorized.js';
import { VerifiedTokens } from './verified-tokens.js';

/**
 * The global guard: every route needs a valid bearer token unless marked {@link Public}. A token
 * the JWT strategy verified before is taken from {@link VerifiedTokens} while it has not expired;
 * its subject is resolved on every request all the same (a live user and sign-in, or a live client),
 * so a revoked token is refused as soon as without the shortcut. Any other token goes through passport and the strategy.
 */
@Injectable()
export class JwtAuthGuard extends AuthGuard('jwt') {
  constructor(
    private readonly reflector: Reflector,
    private readonly verifiedTokens: VerifiedTokens,
    private readonly access: AccessResolver,
  ) {
    super();
  }

  override async canActivate(context: ExecutionContext): Promise<boolean> {
    const isPublic = this.reflector.getAllAndOverride<boolean | undefined>(IS_PUBLIC, [
      context.getHandler(),
      context.getClass(),
    ]);
    if (isPublic === true) return true;
    const request = context.switchToHttp().getRequest<GrantedRequest & { user?: AuthenticatedUser }>();
    const token = bearerTokenOf(request);
    const subject = token === null ? undefined : this.verifiedTokens.subjectOf(token, Date.now());
    if (subject === undefined) return (await super.canActivate(context)) as boolean;
    const access = await this.access.resolve(subject);
    if (access === null) throw unauthorized('revoked');
    request.user = access.user;
    request.accessGrant = access.grant;
    return true;
  }

  /** `info` is jsonwebtoken's reason when it refused the token (an expiry among them). */
  override handleRequest<TUser = AuthenticatedUser>(
    error: unknown,
    user: TUser | false,
    info: unknown,
    context: ExecutionContext,
  ): TUser {
    if (error === null && user !== false && user !== undefined && user !== null) return user;
    if (error instanceof ProblemException) throw error;
    const request = context.switchToHttp().getRequest<Request>();
    if (request.headers.authorization === undefined) throw unauthorized('missing', error);
    const expired = info instanceof Error && info.name === 'TokenExpiredError';
    throw unauthorized(expired ? 'expired' : 'invalid', error ?? info);
  }
}
