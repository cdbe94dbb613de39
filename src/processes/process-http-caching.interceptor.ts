import { createHash } from 'node:crypto';
import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import type { Response } from 'express';
import { map, type Observable } from 'rxjs';

/**
 * `ETag` and `Cache-Control: private, no-cache` on process responses (CONTRACT §0). The tag
 * covers the process data but not `enrichment`, whose status and time change from one request
 * to the next while the data does not. Express compares it with `If-None-Match` when sending
 * and answers 304.
 */
@Injectable()
export class ProcessHttpCachingInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const response = context.switchToHttp().getResponse<Response>();
    return next.handle().pipe(
      map((body: unknown) => {
        response.setHeader('Cache-Control', 'private, no-cache');
        response.setHeader('ETag', entityTag(body));
        return body;
      }),
    );
  }
}

function entityTag(body: unknown): string {
  const { enrichment: _enrichment, ...data } = body as Record<string, unknown>;
  return `"${createHash('sha256').update(JSON.stringify(data)).digest('base64url').slice(0, 27)}"`;
}
