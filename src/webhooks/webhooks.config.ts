import { hkdfSync } from 'node:crypto';
import { Transform } from 'class-transformer';
import { IsIn, IsOptional, Matches } from 'class-validator';
import { BOOLEANS, type BooleanText, emptyAsUnset, flag } from '../config/environment-values.js';
import type { FeatureConfig } from '../config/feature-config.js';

export const WEBHOOK_DELIVERY_PLACES = ['thread', 'in-process'] as const;

export class WebhooksVariables {
  @IsOptional()
  @Transform(emptyAsUnset)
  @IsIn(BOOLEANS, { message: 'must be true or false' })
  WEBHOOK_ALLOW_HTTP?: BooleanText;

  @IsOptional()
  @Transform(emptyAsUnset)
  @IsIn(BOOLEANS, { message: 'must be true or false' })
  WEBHOOK_ALLOW_PRIVATE_TARGETS?: BooleanText;

  @IsOptional()
  @Transform(emptyAsUnset)
  @Matches(/^[A-Za-z0-9+/]{43}=$/, { message: 'must be 32 bytes in base64 (openssl rand -base64 32)' })
  WEBHOOK_SECRET_KEY?: string;

  @IsOptional()
  @Transform(emptyAsUnset)
  @IsIn(WEBHOOK_DELIVERY_PLACES, { message: 'must be thread or in-process' })
  WEBHOOK_DELIVERY?: (typeof WEBHOOK_DELIVERY_PLACES)[number];
}

export interface WebhooksConfig {
  /** `http://` receivers accepted (`https://` only otherwise). */
  allowHttp: boolean;
  /** Loopback, private, multicast and reserved receivers accepted (link-local never). */
  allowPrivateTargets: boolean;
  /** The AES-256-GCM key that encrypts webhook secrets at rest (32 bytes). */
  secretKey: Buffer;
  /** True when no `WEBHOOK_SECRET_KEY` was configured and the key was derived from the JWT secret. */
  secretKeyDerived: boolean;
  /**
   * Where deliveries run: a worker thread of their own (a PostgreSQL server), or the API's own
   * thread (PGlite, whose database lives in that thread's memory).
   */
  delivery: (typeof WEBHOOK_DELIVERY_PLACES)[number];
}

export const webhooksConfig = {
  variables: WebhooksVariables,
  problems: (vars, { databaseUrl }) =>
    vars.WEBHOOK_DELIVERY === 'thread' && databaseUrl === null
      ? [
          'WEBHOOK_DELIVERY: thread needs DATABASE_URL (the embedded PGlite lives in the main thread’s memory)',
        ]
      : [],
  section: (vars, { demoMode, databaseUrl, jwtSecret }) => ({
    allowHttp: flag(vars.WEBHOOK_ALLOW_HTTP, demoMode),
    allowPrivateTargets: flag(vars.WEBHOOK_ALLOW_PRIVATE_TARGETS, demoMode),
    secretKey:
      vars.WEBHOOK_SECRET_KEY === undefined
        ? derivedWebhookKey(jwtSecret)
        : Buffer.from(vars.WEBHOOK_SECRET_KEY, 'base64'),
    secretKeyDerived: vars.WEBHOOK_SECRET_KEY === undefined,
    delivery: vars.WEBHOOK_DELIVERY ?? (databaseUrl === null ? 'in-process' : 'thread'),
  }),
} satisfies FeatureConfig<WebhooksVariables, WebhooksConfig>;

/**
 * Without `WEBHOOK_SECRET_KEY`, the key is derived from the JWT secret (HKDF-SHA256), so that
 * every instance of one deployment reads the secrets the others stored.
 */
function derivedWebhookKey(jwtSecret: string): Buffer {
  return Buffer.from(hkdfSync('sha256', jwtSecret, 'process-lookup', 'webhook-secrets', 32));
}
