import { CanActivate, ExecutionContext, Injectable, type RawBodyRequest } from '@nestjs/common';
import type { Request } from 'express';
import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import { AppConfig } from '../../config/app.config.js';
import { ProblemException } from '../../common/problems/problem.exception.js';
import { PROBLEM_TYPES } from '../../common/problems/problem-types.js';

/**
 * Lets through only notifications signed as Standard Webhooks with `OPERATIONS_NOTIFY_SECRET`
 * (signature over the raw body, timestamp within 5 minutes). Without the secret the route does
 * not exist: 404, as for any unknown route.
 */
@Injectable()
export class NotificationSignatureGuard implements CanActivate {
  private readonly webhook: Webhook | null;

  constructor(config: AppConfig) {
    const secret = config.operations.notifySecret;
    this.webhook = secret === null ? null : new Webhook(secret);
  }

  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<RawBodyRequest<Request>>();
    if (this.webhook === null) {
      throw new ProblemException(PROBLEM_TYPES.notFound, { detail: 'No such route' });
    }
    const header = (name: string): string => {
      const value = request.headers[name];
      return typeof value === 'string' ? value : '';
    };
    try {
      this.webhook.verify(request.rawBody ?? Buffer.alloc(0), {
        'webhook-id': header('webhook-id'),
        'webhook-timestamp': header('webhook-timestamp'),
        'webhook-signature': header('webhook-signature'),
      });
    } catch (error) {
      if (!(error instanceof WebhookVerificationError)) throw error;
      throw new ProblemException(PROBLEM_TYPES.unauthorized, {
        detail: `The notification's signature does not verify: ${error.message}`,
      });
    }
    return true;
  }
}
