import { ProblemException } from '../../common/problems/problem.exception.js';
import { PROBLEM_TYPES } from '../../common/problems/problem-types.js';

export const REALM = 'process-lookup';

/** Why a request gets 401: no token, or which way the one it presented fails. */
export type RefusalReason = 'missing' | 'expired' | 'invalid' | 'revoked';

/**
 * RFC 6750 (section 3.1) descriptions. "Expired" reveals nothing a guesser could use: jsonwebtoken
 * checks the signature before `exp`, so only a token we signed can be told expired.
 */
const DESCRIPTIONS: Record<Exclude<RefusalReason, 'missing'>, string> = {
  expired: 'The access token expired',
  invalid: 'The access token is malformed, wrongly signed or not an access token of this service',
  revoked: 'The access token was revoked (sign-in ended, user disabled or client deleted)',
};

/** A `WWW-Authenticate: Bearer` challenge with the realm and the given RFC 6750 parameters. */
export function bearerChallenge(parameters: Record<string, string> = {}): string {
  return [
    `Bearer realm="${REALM}"`,
    ...Object.entries(parameters).map(([name, value]) => `${name}="${value}"`),
  ].join(', ');
}

/** The one 401 for a request without an acceptable bearer token. */
export function unauthorized(reason: RefusalReason, cause?: unknown): ProblemException {
  const challenge =
    reason === 'missing'
      ? bearerChallenge()
      : bearerChallenge({ error: 'invalid_token', error_description: DESCRIPTIONS[reason] });
  return new ProblemException(PROBLEM_TYPES.unauthorized, {
    detail:
      reason === 'missing'
        ? 'A bearer token is required (Authorization: Bearer <token>)'
        : DESCRIPTIONS[reason],
    headers: { 'WWW-Authenticate': challenge },
    cause,
  });
}
