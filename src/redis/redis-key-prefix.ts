/**
 * Injection token of the prefix put before every key this service writes to Redis, so that it can
 * share a Redis with others (and test runs do not collide).
 */
export const REDIS_KEY_PREFIX = Symbol('REDIS_KEY_PREFIX');

export const DEFAULT_REDIS_KEY_PREFIX = 'process-lookup:';
