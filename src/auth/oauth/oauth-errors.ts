import { ProblemException } from '../../common/problems/problem.exception.js';

/**
 * The token endpoint's errors (RFC 6749, section 5.2), each with the problem type it also carries,
 * so that OAuth libraries read `error` and everyone else the problem members.
 */
export const OAUTH_ERRORS = {
  invalid_request: { type: '/problems/invalid-request', title: 'Invalid request', status: 400 },
  unsupported_grant_type: {
    type: '/problems/unsupported-grant-type',
    title: 'Unsupported grant type',
    status: 400,
  },
  invalid_scope: { type: '/problems/invalid-scope', title: 'Invalid scope', status: 400 },
  invalid_client: { type: '/problems/invalid-client', title: 'Invalid client', status: 401 },
} as const;

export type OAuthErrorCode = keyof typeof OAUTH_ERRORS;

/** An RFC 6749 error object with the problem members beside it, as `application/json`. */
export function oauthError(
  error: OAuthErrorCode,
  description: string,
  headers?: Record<string, string>,
): ProblemException {
  return new ProblemException(OAUTH_ERRORS[error], {
    detail: description,
    extensions: { error, error_description: description },
    contentType: 'application/json',
    ...(headers !== undefined && { headers }),
  });
}
