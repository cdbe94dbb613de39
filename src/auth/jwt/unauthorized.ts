import { ProblemException } from '../../common/problems/problem.exception.js';
import { PROBLEM_TYPES } from '../../common/problems/problem-types.js';

/**
 * The one 401 for a request without an acceptable bearer token. Which check failed is nothing an
 * attacker should learn: only whether a token came at all.
 */
export function unauthorized(hasToken: boolean, cause?: unknown): ProblemException {
  return new ProblemException(PROBLEM_TYPES.unauthorized, {
    detail: hasToken
      ? 'The bearer token is invalid, expired or no longer accepted'
      : 'A bearer token is required (Authorization: Bearer <token>)',
    headers: { 'WWW-Authenticate': 'Bearer' },
    cause,
  });
}
