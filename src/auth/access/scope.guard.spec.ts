import { Controller, Get, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { Public } from '../../common/http/public.decorator.js';
import { ProblemException } from '../../common/problems/problem.exception.js';
import type { Scope } from '../../domain/scopes.js';
import { USER_GRANT, type AccessGrant } from './access-grant.js';
import { RequiresScope, RequiresUserToken } from './requires-access.decorator.js';
import { ScopeGuard } from './scope.guard.js';

@RequiresScope('webhooks:manage')
@Controller()
class WebhooksLikeController {
  @Get()
  list(): void {}

  @Get()
  @RequiresScope('changes:read')
  overridden(): void {}

  @Get()
  @RequiresUserToken()
  userOnly(): void {}

  @Get()
  @Public()
  open(): void {}
}

@Controller()
class UndeclaredController {
  @Get()
  forgotten(): void {}
}

const clientGrant = (...scopes: Scope[]): AccessGrant => ({
  scopes: new Set(scopes),
  clientId: 'plc_8Zq3v1Xw0bT4nYc2LmQa9d',
});

function contextFor(handler: () => void, controller: object, accessGrant?: AccessGrant): ExecutionContext {
  const request = { accessGrant };
  return {
    switchToHttp: () => ({ getRequest: () => request }),
    getHandler: () => handler,
    getClass: () => controller,
  } as unknown as ExecutionContext;
}

describe(ScopeGuard.name, () => {
  const sut = new ScopeGuard(new Reflector());
  const { list, overridden, userOnly, open } = WebhooksLikeController.prototype;

  const refusal = (context: ExecutionContext): ProblemException => {
    try {
      sut.canActivate(context);
    } catch (error) {
      expect(error).toBeInstanceOf(ProblemException);
      return error as ProblemException;
    }
    throw new Error('expected a refusal');
  };

  it('lets a user’s own token through everywhere', () => {
    for (const handler of [list, overridden, userOnly]) {
      expect(sut.canActivate(contextFor(handler, WebhooksLikeController, USER_GRANT))).toBe(true);
    }
  });

  it('lets a client token through where its scope is declared, on the controller or the route', () => {
    expect(sut.canActivate(contextFor(list, WebhooksLikeController, clientGrant('webhooks:manage')))).toBe(
      true,
    );
    expect(sut.canActivate(contextFor(overridden, WebhooksLikeController, clientGrant('changes:read')))).toBe(
      true,
    );
  });

  it('refuses a client token without the scope: 403 insufficient-scope, naming it in WWW-Authenticate', () => {
    const error = refusal(contextFor(overridden, WebhooksLikeController, clientGrant('webhooks:manage')));

    expect(error.getStatus()).toBe(403);
    expect(error.problem.type).toBe('/problems/insufficient-scope');
    expect(error.problemOptions.headers).toEqual({
      'WWW-Authenticate': 'Bearer realm="process-lookup", error="insufficient_scope", scope="changes:read"',
    });
  });

  it('refuses any client token where only a user’s own token will do', () => {
    const grant = clientGrant('processes:read', 'changes:read', 'webhooks:manage');

    expect(refusal(contextFor(userOnly, WebhooksLikeController, grant)).getStatus()).toBe(403);
  });

  it('asks nothing of public routes', () => {
    expect(sut.canActivate(contextFor(open, WebhooksLikeController))).toBe(true);
  });

  it('refuses every token on a protected route that declares nothing, rather than open it', () => {
    expect(() =>
      sut.canActivate(contextFor(UndeclaredController.prototype.forgotten, UndeclaredController, USER_GRANT)),
    ).toThrow('UndeclaredController.forgotten declares no scope');
  });
});
