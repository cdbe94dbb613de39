import { Injectable } from '@nestjs/common';
import { Counter, Registry } from 'prom-client';

/** The limits that refuse requests; a fixed set, so the metric's label never holds a key. */
export type RateLimiterName = 'login-username-address' | 'login-address' | 'login-username' | 'per-user';

/** `rate_limit_rejections_total` by limiter: what the rate limiting calls on every 429. */
@Injectable()
export class RateLimitMetrics {
  private readonly rejections: Counter<'limiter'>;

  constructor(registry: Registry) {
    this.rejections = new Counter({
      name: 'rate_limit_rejections_total',
      help: 'Requests refused with 429, by limiter',
      labelNames: ['limiter'],
      registers: [registry],
    });
  }

  rejected(limiter: RateLimiterName): void {
    this.rejections.inc({ limiter });
  }
}
