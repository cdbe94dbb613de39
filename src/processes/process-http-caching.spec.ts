import { createHash } from 'node:crypto';
import type { Request, Response } from 'express';
import { JsonText } from '../common/http/json-text.js';
import { processAnswer } from './process-http-caching.js';

/** The tag as the interceptor documents it: weak, the first 27 base64url characters of the SHA-256. */
function tagOf(json: string): string {
  return `W/"${createHash('sha256').update(json).digest('base64url').slice(0, 27)}"`;
}

const LIST_TEXT =
  '{"data":[{"numero":"IMP-1"}],"meta":{"page":1,"pageSize":10,"totalItems":1,"totalPages":1}}';
const DETAIL = { numero: 'IMP-1', status: 'OPEN', parties: [{ role: 'importer', name: 'ACME' }] };
const ENRICHMENT = { status: 'FRESH', fetchedAt: '2026-03-14T12:00:00.000Z' };

describe(processAnswer.name, () => {
  /** One answer: the body the handler has, and what was answered. */
  function answer(body: JsonText<unknown> | object, ifNoneMatch?: string) {
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
    const bytes = processAnswer(request as Request, response as unknown as Response, body);
    return { bytes, sent: bytes.toString('utf8'), status, headers: Object.fromEntries(headers), varied };
  }

  describe('a list page (JsonText)', () => {
    it('sends the text as it is, tagged with the hash of that text, private and to be revalidated', () => {
      const { sent, status, headers, varied } = answer(JsonText.of(LIST_TEXT));

      expect(sent).toBe(LIST_TEXT);
      expect(status).toBeUndefined();
      expect(headers).toEqual({
        ETag: tagOf(LIST_TEXT),
        'Cache-Control': 'private, no-cache',
        'Content-Type': 'application/json; charset=utf-8',
      });
      expect(varied).toEqual(['Accept-Encoding']);
    });

    it('sends the bytes the tag is the hash of, the same tag for the same text as ever', () => {
      const text = '{"data":[{"numero":"IMP-1","note":"Liberação no canal verde ✓"}]}';

      const { bytes, headers } = answer(JsonText.of(text));

      expect(Buffer.isBuffer(bytes)).toBe(true);
      expect(bytes.equals(Buffer.from(text, 'utf8'))).toBe(true);
      expect(headers.ETag).toBe(tagOf(text));
    });

    it('tags a composite JsonText by its joined text', () => {
      const body = JsonText.object({ data: JsonText.array([JsonText.of('{"numero":"IMP-1"}')]), meta: {} });

      const { sent, headers } = answer(body);

      expect(sent).toBe('{"data":[{"numero":"IMP-1"}],"meta":{}}');
      expect(headers.ETag).toBe(tagOf('{"data":[{"numero":"IMP-1"}],"meta":{}}'));
    });

    it('tags a page of digested items by their digests, not their text', () => {
      const page = (note: string, digest: string) =>
        JsonText.object({ data: JsonText.array([JsonText.of(`{"note":"${note}"}`, digest)]), meta: {} });

      const { sent, headers } = answer(page('first', 'd1'));

      expect(sent).toBe('{"data":[{"note":"first"}],"meta":{}}');
      expect(headers.ETag).toBe(tagOf('{"data":[\u0000d1],"meta":{}}'));
      expect(answer(page('other text, same digest', 'd1')).headers.ETag).toBe(headers.ETag);
      expect(answer(page('first', 'd2')).headers.ETag).not.toBe(headers.ETag);
    });

    it('gives another page another tag', () => {
      const one = answer(JsonText.of(LIST_TEXT));
      const other = answer(JsonText.of(LIST_TEXT.replace('IMP-1', 'IMP-2')));

      expect(other.headers.ETag).not.toBe(one.headers.ETag);
    });
  });

  describe('a detail (a plain object)', () => {
    it('tags the data without `enrichment` and sends `enrichment` as the last member', () => {
      const { sent, headers } = answer({ ...DETAIL, enrichment: ENRICHMENT });

      expect(headers.ETag).toBe(tagOf(JSON.stringify(DETAIL)));
      expect(sent).toBe(`${JSON.stringify(DETAIL).slice(0, -1)},"enrichment":${JSON.stringify(ENRICHMENT)}}`);
      expect(Object.keys(JSON.parse(sent) as object)).toEqual([...Object.keys(DETAIL), 'enrichment']);
      expect(JSON.parse(sent)).toEqual({ ...DETAIL, enrichment: ENRICHMENT });
    });

    it('moves an `enrichment` given first to the end, leaving the order of the rest', () => {
      const { sent } = answer({ enrichment: ENRICHMENT, ...DETAIL });

      expect(Object.keys(JSON.parse(sent) as object)).toEqual([...Object.keys(DETAIL), 'enrichment']);
    });

    it('keeps the tag when only `enrichment` changes, and changes it when the data does', () => {
      const fresh = answer({ ...DETAIL, enrichment: ENRICHMENT });
      const stale = answer({
        ...DETAIL,
        enrichment: { status: 'STALE', fetchedAt: '2026-03-14T11:00:00Z' },
      });
      const changed = answer({ ...DETAIL, status: 'CLOSED', enrichment: ENRICHMENT });

      expect(stale.headers.ETag).toBe(fresh.headers.ETag);
      expect(changed.headers.ETag).not.toBe(fresh.headers.ETag);
    });

    it('serialises an object without `enrichment` as it is', () => {
      const { sent, headers } = answer(DETAIL);

      expect(sent).toBe(JSON.stringify(DETAIL));
      expect(headers.ETag).toBe(tagOf(JSON.stringify(DETAIL)));
      expect(headers['Content-Type']).toBe('application/json; charset=utf-8');
    });

    it('tags an object exactly as the JsonText of the same text', () => {
      const asObject = answer(DETAIL);
      const asText = answer(JsonText.of(JSON.stringify(DETAIL)));

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
    ])('answers 304 without a body to %s, still with the tag and caching headers', (_case, header) => {
      const { sent, status, headers, varied } = answer(JsonText.of(LIST_TEXT), header());

      expect(status).toBe(304);
      expect(sent).toBe('');
      expect(headers).toEqual({ ETag: tagOf(LIST_TEXT), 'Cache-Control': 'private, no-cache' });
      expect(varied).toEqual(['Accept-Encoding']);
    });

    it('answers 304 to a detail whose tag matches though its `enrichment` has changed', () => {
      const { headers } = answer({ ...DETAIL, enrichment: ENRICHMENT });

      const again = answer(
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
    ])('answers 200 with the body to %s', (_case, header) => {
      const { sent, status, headers } = answer(JsonText.of(LIST_TEXT), header);

      expect(status).toBeUndefined();
      expect(sent).toBe(LIST_TEXT);
      expect(headers.ETag).toBe(tagOf(LIST_TEXT));
      expect(headers['Content-Type']).toBe('application/json; charset=utf-8');
    });
  });
});
