import { createHash } from 'node:crypto';
import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import type { Response } from 'express';
import { map, type Observable } from 'rxjs';
import { JsonText } from '../common/http/json-text.js';

/**
 * `ETag` and `Cache-Control: private, no-cache` on process responses (CONTRACT §0). The tag
 * covers the process data but not `enrichment`, whose status and time change from one request
 * to the next while the data does not. Express compares it with `If-None-Match` when sending
 * and answers 304.
 *
 * The body is serialised here, once (a list arrives as `JsonText`, serialised already), and sent
 * as that text: hashing a separately serialised copy would double the cost of a large page.
 */
@Injectable()
export class ProcessHttpCachingInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<string> {
    const response = context.switchToHttp().getResponse<Response>();
    return next.handle().pipe(
      map((body: JsonText<unknown> | Record<string, unknown>) => {
        const { dataJson, enrichment } = partsOf(body);
        response.setHeader('Cache-Control', 'private, no-cache');
        response.setHeader('ETag', entityTag(dataJson));
        response.setHeader('Content-Type', 'application/json; charset=utf-8');
        // `enrichment` is the detail's last member: appending it keeps the documented order.
        return enrichment === undefined
          ? dataJson
          : `${dataJson.slice(0, -1)},"enrichment":${JSON.stringify(enrichment)}}`;
      }),
    );
  }
}

/** The text the tag covers, and the detail's `enrichment`, which it does not cover. */
function partsOf(body: JsonText<unknown> | Record<string, unknown>): {
  dataJson: string;
  enrichment?: unknown;
} {
  if (body instanceof JsonText) return { dataJson: body.text };
  const { enrichment, ...data } = body;
  return { dataJson: JSON.stringify(data), enrichment };
}

function entityTag(json: string): string {
  return `"${createHash('sha256').update(json).digest('base64url').slice(0, 27)}"`;
}
