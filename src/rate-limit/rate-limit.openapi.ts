/**
 * The per-user limit's response headers as the OpenAPI document declares them, for the responses
 * of routes the limit counts (every authenticated route; errors carry them too).
 */
export const RATE_LIMIT_HEADERS = {
  'RateLimit-Policy': {
    description:
      'The per-user quota and its window in seconds (draft-ietf-httpapi-ratelimit-headers), e.g. ' +
      '`"per-user";q=600;w=60`; `q` is the configured limit. Sent on every answer of an authenticated ' +
      'route, errors and 429 included.',
    schema: { type: 'string', example: '"per-user";q=600;w=60' },
  },
  RateLimit: {
    description:
      'What is left of the quota (`r`) and the seconds until the window resets (`t`), e.g. ' +
      '`"per-user";r=599;t=60`. Sent with `RateLimit-Policy`.',
    schema: { type: 'string', example: '"per-user";r=599;t=60' },
  },
} as const;
