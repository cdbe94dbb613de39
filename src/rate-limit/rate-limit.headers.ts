import type { ThrottlerStorageRecord } from './rate-limit.store.js';

/** The name of the per-user policy in the headers (draft-ietf-httpapi-ratelimit-headers). */
const POLICY_NAME = 'per-user';

/**
 * `RateLimit-Policy` (the quota and its window, in seconds) and `RateLimit` (what is left of it and
 * the seconds until the window resets) as draft-ietf-httpapi-ratelimit-headers writes them, e.g.
 * `"per-user";q=600;w=60` and `"per-user";r=599;t=60`.
 */
export function rateLimitHeaders(
  limit: number,
  windowMs: number,
  record: ThrottlerStorageRecord,
): Record<'RateLimit-Policy' | 'RateLimit', string> {
  const remaining = record.isBlocked ? 0 : Math.max(0, limit - record.totalHits);
  const reset = record.isBlocked ? record.timeToBlockExpire : record.timeToExpire;
  return {
    'RateLimit-Policy': `"${POLICY_NAME}";q=${limit};w=${Math.round(windowMs / 1000)}`,
    RateLimit: `"${POLICY_NAME}";r=${remaining};t=${Math.max(0, reset)}`,
  };
}
