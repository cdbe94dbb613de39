import { createHash } from 'node:crypto';
import { HttpStatus } from '@nestjs/common';
import type { Request, Response } from 'express';
import { ifNoneMatchMatches, weakEntityTag } from '../common/http/entity-tags.js';
import { JsonText } from '../common/http/json-text.js';

const NO_BODY = Buffer.alloc(0);

/**
 * A process answer with `ETag`, `Cache-Control: private, no-cache` and conditional requests. The
 * tag covers the process data but not `enrichment`, whose status and time change from one
 * request to the next while the data does not, nor the encoding (gzip or identity): it is weak.
 * `If-None-Match` is evaluated here, whatever `Cache-Control` or `Pragma` the request carries, and
 * a match answers 304 with the tag, the caching headers and no body.
 *
 * The body is serialised here, once (a list arrives as `JsonText`, serialised already), and
 * encoded once. A list's tag is the hash of its fingerprint, in which each item is the digest the
 * database keeps with it: hashing the few hundred kilobytes of a page of 100 cost more CPU than
 * reading it. A detail's tag is the hash of the bytes that are sent.
 *
 * A function the handlers call rather than an interceptor: any interceptor puts a route's answer
 * through Nest's Observable pipeline, which cost more than everything done here.
 */
export function processAnswer(
  request: Request,
  response: Response,
  body: JsonText<unknown> | object,
): Buffer {
  const { data, tagged, enrichment } = partsOf(body);
  const tag = entityTag(tagged);
  response.setHeader('Cache-Control', 'private, no-cache');
  response.setHeader('ETag', tag);
  response.vary('Accept-Encoding');
  if (ifNoneMatchMatches(request.headers['if-none-match'], tag)) {
    response.status(HttpStatus.NOT_MODIFIED);
    return NO_BODY;
  }
  response.setHeader('Content-Type', 'application/json; charset=utf-8');
  return enrichment === undefined ? data : withEnrichment(data, enrichment);
}

interface AnswerParts {
  /** The JSON bytes sent, but for a detail's `enrichment`. */
  data: Buffer;
  /** What the tag hashes: equal for equal `data`. */
  tagged: Buffer | string;
  enrichment?: unknown;
}

function partsOf(body: JsonText<unknown> | object): AnswerParts {
  if (body instanceof JsonText) return { data: body.bytes, tagged: body.fingerprint };
  const { enrichment, ...rest } = body as { enrichment?: unknown };
  const data = Buffer.from(JSON.stringify(rest));
  return { data, tagged: data, enrichment };
}

/** The object in `data` with `enrichment` as its last member, the documented order. */
function withEnrichment(data: Buffer, enrichment: unknown): Buffer {
  return Buffer.concat([data.subarray(0, -1), Buffer.from(`,"enrichment":${JSON.stringify(enrichment)}}`)]);
}

function entityTag(tagged: Buffer | string): string {
  return weakEntityTag(createHash('sha256').update(tagged).digest('base64url').slice(0, 27));
}
