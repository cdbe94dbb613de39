import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { IS_PUBLIC } from '../../common/http/public.decorator.js';
import { ProblemException } from '../../common/problems/problem.exception.js';
import { PROBLEM_TYPES } from '../../common/problems/problem-types.js';
import type { GrantedRequest } from './access-grant.js';
import { REQUIRED_ACCESS, type RequiredAccess } from './requires-access.decorator.js';
import { bearerChallenge } from '../jwt/unauthorized.js';

/**
 * The global guard after the JWT guard (and the per-user limit, whose headers a 403 carries too):
 * the token must carry the scope the route declares with {@link RequiresScope}, or be a user's own
 * token where the route says {@link RequiresUserToken}. A protected route that declares neither is
 * a mistake of ours, refused for every token rather than open to all (a test walks every route).
 */
@Injectable()
export class ScopeGuard implements CanActivate {
  constructor(private readonly reflector: Reflector) {}

  canActivate(context: ExecutionContext): boolean {
    const targets = [context.getHandler(), context.getClass()];
    if (this.reflector.getAllAndOverride<boolean | undefined>(IS_PUBLIC, targets) === true) return true;
    const required = this.reflector.getAllAndOverride<RequiredAccess | undefined>(REQUIRED_ACCESS, targets);
    if (required === undefined) {
      throw new Error(`${context.getClass().name}.${context.getHandler().name} declares no scope`);
    }
    const grant = context.switchToHttp().getRequest<GrantedRequest>().accessGrant;
    if (grant === undefined) throw new Error('the JWT guard let a request through without a grant');
    if ('userTokenOnly' in required) {
      if (grant.clientId === null) return true;
      throw insufficientScope(
        'Client applications are managed with a signed-in user’s own token, not a client’s',
        bearerChallenge({ error: 'insufficient_scope' }),
      );
    }
    if (grant.scopes.has(required.scope)) return true;
    throw insufficientScope(
      `This route needs the scope ${required.scope}, which the token lacks`,
      bearerChallenge({ error: 'insufficient_scope', scope: required.scope }),
    );
  }
}

function insufficientScope(detail: string, challenge: string): ProblemException {
  return new ProblemException(PROBLEM_TYPES.insufficientScope, {
    detail,
    headers: { 'WWW-Authenticate': challenge },
  });
}
