import { applyDecorators, SetMetadata } from '@nestjs/common';
import { ApiSecurity } from '@nestjs/swagger';
import { ApiProblemResponses } from '../../common/openapi/api-problem-responses.decorator.js';
import type { Scope } from '../../domain/scopes.js';

export const REQUIRED_ACCESS = 'auth:requiredAccess';

/** The security schemes of the OpenAPI document (see src/openapi.ts). */
export const BEARER_SCHEME = 'bearer';
export const OAUTH2_SCHEME = 'oauth2';

/** What a protected route asks of the token: a scope, or to be a user's own token. */
export type RequiredAccess = { scope: Scope } | { userTokenOnly: true };

/**
 * The scope a route (or every route of a controller) needs. A user's own token carries every
 * scope; a client's token without this one gets 403 `/problems/insufficient-scope`. Declares the
 * same in the OpenAPI document: the bearer scheme, or OAuth 2.0 client credentials with this scope.
 */
export function RequiresScope(scope: Scope): MethodDecorator & ClassDecorator {
  return applyDecorators(
    SetMetadata(REQUIRED_ACCESS, { scope } satisfies RequiredAccess),
    ApiSecurity(BEARER_SCHEME),
    ApiSecurity(OAUTH2_SCHEME, [scope]),
    ApiProblemResponses(['insufficientScope']),
  );
}

/** A route only a signed-in user's own token may call, never a client application's (403). */
export function RequiresUserToken(): MethodDecorator & ClassDecorator {
  return applyDecorators(
    SetMetadata(REQUIRED_ACCESS, { userTokenOnly: true } satisfies RequiredAccess),
    ApiSecurity(BEARER_SCHEME),
    ApiProblemResponses(['insufficientScope']),
  );
}
