import { Injectable } from '@nestjs/common';
import { Counter, Registry } from 'prom-client';

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

  /** `limiter`: a fixed name (e.g. `login-username`, `login-address`, `processes`), never a key. */
  rejected(limiter: string): void {
    this.rejections.inc({ limiter });
  }
}
