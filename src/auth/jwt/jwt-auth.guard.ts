import { ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AuthGuard } from '@nestjs/passport';
import type { Request } from 'express';
import type { AuthenticatedUser } from '../../domain/authenticated-user.js';
import { IS_PUBLIC } from '../../common/http/public.decorator.js';
import { unauthorized } from './unauthorized.js';

/** The global guard: every route needs a valid bearer token unless marked {@link Public}. */
@Injectable()
export class JwtAuthGuard extends AuthGuard('jwt') {
  constructor(private readonly reflector: Reflector) {
    super();
  }

  override canActivate(context: ExecutionContext) {
    const isPublic = this.reflector.getAllAndOverride<boolean | undefined>(IS_PUBLIC, [
      context.getHandler(),
      context.getClass(),
    ]);
    return isPublic === true || super.canActivate(context);
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
