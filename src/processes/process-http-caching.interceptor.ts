import { createHash } from 'node:crypto';
import { CallHandler, ExecutionContext, HttpStatus, Injectable, NestInterceptor } from '@nestjs/common';
import type { Request, Response } from 'express';
import { map, type Observable } from 'rxjs';
import { ifNoneMatchMatches, weakEntityTag } from '../common/http/entity-tags.js';
import { JsonText } from '../common/http/json-text.js';

/**
 * `ETag`, `Cache-Control: private, no-cache` and conditional requests on process responses. The
 * tag covers the process data but not `enrichment`, whose status and time change from one
 * request to the next while the data does not, nor the encoding (gzip or identity): it is weak.
 * `If-None-Match` is evaluated here, whatever `Cache-Control` or `Pragma` the request carries, and
 * a match answers 304 with the tag, the caching headers and no body.
 *
 * The body is serialised here, once (a list arrives as `JsonText`, serialised already), encoded
 * once, and the tag is the hash of the very bytes that are sent: hashing a separately serialised
 * or encoded copy would double the cost of a large page.
 */
@Injectable()
export class ProcessHttpCachingInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<Buffer> {
    const http = context.switchToHttp();
    const request = http.getRequest<Request>();
    const response = http.getResponse<Response>();
    return next.handle().pipe(
      map((body: JsonText<unknown> | Record<string, unknown>) => {
        const { data, enrichment } = partsOf(body);
        const tag = entityTag(data);
        response.setHeader('Cache-Control', 'private, no-cache');
        response.setHeader('ETag', tag);
        response.vary('Accept-Encoding');
        if (ifNoneMatchMatches(request.headers['if-none-match'], tag)) {
          response.status(HttpStatus.NOT_MODIFIED);
          return NO_BODY;
        }
        response.setHeader('Content-Type', 'application/json; charset=utf-8');
        // `enrichment` is the detail's last member: appending it keeps the documented order.
        return enrichment === undefined ? data : withEnrichment(data, enrichment);
      }),
    );
  }
}

const NO_BODY = Buffer.alloc(0);

/** The JSON bytes the tag covers, and the detail's `enrichment`, which it does not cover. */
function partsOf(body: JsonText<unknown> | Record<string, unknown>): {
  data: Buffer;
  enrichment?: unknown;
} {
  if (body instanceof JsonText) return { data: body.bytes };
  const { enrichment, ...data } = body;
  return { data: Buffer.from(JSON.stringify(data)), enrichment };
}

/** The object in `data` with `enrichment` as its last member, the documented order. */
function withEnrichment(data: Buffer, enrichment: unknown): Buffer {
  return Buffer.concat([data.subarray(0, -1), Buffer.from(`,"enrichment":${JSON.stringify(enrichment)}}`)]);
}

function entityTag(json: Buffer): string {
  return weakEntityTag(createHash('sha256').update(json).digest('base64url').slice(0, 27));
}
