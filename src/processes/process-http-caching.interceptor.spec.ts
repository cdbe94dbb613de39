import { createHash } from 'node:crypto';
import type { CallHandler, ExecutionContext } from '@nestjs/common';
import { lastValueFrom, of } from 'rxjs';
import { JsonText } from '../common/http/json-text.js';
import { ProcessHttpCachingInterceptor } from './process-http-caching.interceptor.js';

/** The tag as the interceptor documents it: weak, the first 27 base64url characters of the SHA-256. */
function tagOf(json: string): string {
  return `W/"${createHash('sha256').update(json).digest('base64url').slice(0, 27)}"`;
}

const LIST_TEXT =
  '{"data":[{"numero":"IMP-1"}],"meta":{"page":1,"pageSize":10,"totalItems":1,"totalPages":1}}';
const DETAIL = { numero: 'IMP-1', status: 'OPEN', parties: [{ role: 'importer', name: 'ACME' }] };
const ENRICHMENT = { status: 'FRESH', fetchedAt: '2026-03-14T12:00:00.000Z' };

describe(ProcessHttpCachingInterceptor.name, () => {
  const sut = new ProcessHttpCachingInterceptor();

  /** One request through the interceptor: the body the handler returns, and what was answered. */
  async function answer(body: unknown, ifNoneMatch?: string) {
    const headers = new Map<string, string>();
    const varied: string[] = [];
    let status: number | undefined;
    const response = {
      setHeader: (name: string, value: string) => headers.set(name, value),
      vary: (field: string) => varied.push(field),
      status: (code: number) => {
        status = code;
        return response;
      },
    };
    const request = { headers: ifNoneMatch === undefined ? {} : { 'if-none-match': ifNoneMatch } };
    const context = {
      switchToHttp: () => ({ getRequest: () => request, getResponse: () => response }),
    } as unknown as ExecutionContext;
    const next: CallHandler = { handle: () => of(body) };
    const bytes = await lastValueFrom(sut.intercept(context, next));
    return { bytes, sent: bytes.toString('utf8'), status, headers: Object.fromEntries(headers), varied };
  }

  describe('a list page (JsonText)', () => {
    it('sends the text as it is, tagged with the hash of that text, private and to be revalidated', async () => {
      const { sent, status, headers, varied } = await answer(JsonText.of(LIST_TEXT));

      expect(sent).toBe(LIST_TEXT);
      expect(status).toBeUndefined();
      expect(headers).toEqual({
        ETag: tagOf(LIST_TEXT),
        'Cache-Control': 'private, no-cache',
        'Content-Type': 'application/json; charset=utf-8',
      });
      expect(varied).toEqual(['Accept-Encoding']);
    });

    it('sends the bytes the tag is the hash of, the same tag for the same text as ever', async () => {
      const text = '{"data":[{"numero":"IMP-1","note":"Liberação no canal verde ✓"}]}';

      const { bytes, headers } = await answer(JsonText.of(text));

      expect(Buffer.isBuffer(bytes)).toBe(true);
      expect(bytes.equals(Buffer.from(text, 'utf8'))).toBe(true);
      expect(headers.ETag).toBe(tagOf(text));
    });

    it('tags a composite JsonText by its joined text', async () => {
      const body = JsonText.object({ data: JsonText.array([JsonText.of('{"numero":"IMP-1"}')]), meta: {} });

      const { sent, headers } = await answer(body);

      expect(sent).toBe('{"data":[{"numero":"IMP-1"}],"meta":{}}');
      expect(headers.ETag).toBe(tagOf('{"data":[{"numero":"IMP-1"}],"meta":{}}'));
    });

    it('gives another page another tag', async () => {
      const one = await answer(JsonText.of(LIST_TEXT));
      const other = await answer(JsonText.of(LIST_TEXT.replace('IMP-1', 'IMP-2')));

      expect(other.headers.ETag).not.toBe(one.headers.ETag);
    });
  });

  describe('a detail (a plain object)', () => {
    it('tags the data without `enrichment` and sends `enrichment` as the last member', async () => {
      const { sent, headers } = await answer({ ...DETAIL, enrichment: ENRICHMENT });

      expect(headers.ETag).toBe(tagOf(JSON.stringify(DETAIL)));
      expect(sent).toBe(`${JSON.stringify(DETAIL).slice(0, -1)},"enrichment":${JSON.stringify(ENRICHMENT)}}`);
      expect(Object.keys(JSON.parse(sent) as object)).toEqual([...Object.keys(DETAIL), 'enrichment']);
      expect(JSON.parse(sent)).toEqual({ ...DETAIL, enrichment: ENRICHMENT });
    });

    it('moves an `enrichment` given first to the end, leaving the order of the rest', async () => {
      const { sent } = await answer({ enrichment: ENRICHMENT, ...DETAIL });

      expect(Object.keys(JSON.parse(sent) as object)).toEqual([...Object.keys(DETAIL), 'enrichment']);
    });

    it('keeps the tag when only `enrichment` changes, and changes it when the data does', async () => {
      const fresh = await answer({ ...DETAIL, enrichment: ENRICHMENT });
      const stale = await answer({
        ...DETAIL,
        enrichment: { status: 'STALE', fetchedAt: '2026-03-14T11:00:00Z' },
      });
      const changed = await answer({ ...DETAIL, status: 'CLOSED', enrichment: ENRICHMENT });

      expect(stale.headers.ETag).toBe(fresh.headers.ETag);
      expect(changed.headers.ETag).not.toBe(fresh.headers.ETag);
    });

    it('serialises an object without `enrichment` as it is', async () => {
      const { sent, headers } = await answer(DETAIL);

      expect(sent).toBe(JSON.stringify(DETAIL));
      expect(headers.ETag).toBe(tagOf(JSON.stringify(DETAIL)));
      expect(headers['Content-Type']).toBe('application/json; charset=utf-8');
    });

    it('tags an object exactly as the JsonText of the same text', async () => {
      const asObject = await answer(DETAIL);
      const asText = await answer(JsonText.of(JSON.stringify(DETAIL)));

      expect(asObject.headers.ETag).toBe(asText.headers.ETag);
    });
  });

  describe('If-None-Match', () => {
    const opaque = tagOf(LIST_TEXT).slice(2);

    it.each([
      ['the weak tag itself', () => tagOf(LIST_TEXT)],
      ['its strong form (weak comparison)', () => opaque],
      ['a list that holds it', () => `"something-else", ${tagOf(LIST_TEXT)}`],
      ['the wildcard', () => '*'],
    ])('answers 304 without a body to %s, still with the tag and caching headers', async (_case, header) => {
      const { sent, status, headers, varied } = await answer(JsonText.of(LIST_TEXT), header());

      expect(status).toBe(304);
      expect(sent).toBe('');
      expect(headers).toEqual({ ETag: tagOf(LIST_TEXT), 'Cache-Control': 'private, no-cache' });
      expect(varied).toEqual(['Accept-Encoding']);
    });

    it('answers 304 to a detail whose tag matches though its `enrichment` has changed', async () => {
      const { headers } = await answer({ ...DETAIL, enrichment: ENRICHMENT });

      const again = await answer(
        { ...DETAIL, enrichment: { status: 'CACHED', fetchedAt: '2026-03-14T12:05:00Z' } },
        headers.ETag,
      );

      expect(again.status).toBe(304);
      expect(again.sent).toBe('');
    });

    it.each([
      ['another tag', 'W/"not-the-current-one"'],
      ['a list without it', '"a", W/"b"'],
      ['the tag unquoted', opaque.slice(1, -1)],
      ['the tag cut short', tagOf(LIST_TEXT).slice(0, -2)],
    ])('answers 200 with the body to %s', async (_case, header) => {
      const { sent, status, headers } = await answer(JsonText.of(LIST_TEXT), header);

      expect(status).toBeUndefined();
      expect(sent).toBe(LIST_TEXT);
      expect(headers.ETag).toBe(tagOf(LIST_TEXT));
      expect(headers['Content-Type']).toBe('application/json; charset=utf-8');
    });
  });
});
