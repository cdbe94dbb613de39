/**
 * Compression and HEAD, against the deployment, read off the wire with Node's own HTTP client (no
 * decoding hides what the deployment sent). Each answer, decoded, is checked against the document
 * like any of the suite's.
 */
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { gunzipSync } from 'node:zlib';
import type { ProcessList } from './support/api-types.js';
import { RemoteApi, ROOM_WAIT_MS } from './support/remote-api.js';

/** A page of delivered processes: nothing moves them while the tests compare answers. */
const SETTLED_PAGE = '/api/processes?status=DELIVERED&sort=numero&pageSize=20';

/** What reached the wire: status, headers and the raw body bytes, before any decoding. */
interface RawAnswer {
  status: number;
  headers: Record<string, string | undefined>;
  body: Buffer;
}

const api = await RemoteApi.connect();

describe('compression and HEAD, on the wire', () => {
  let token: string;

  beforeAll(async () => {
    token = await api.signInFor(20);
  }, ROOM_WAIT_MS);

  const raw = async (path: string, headers: Record<string, string>, method = 'GET'): Promise<RawAnswer> => {
    const url = new URL(path, api.baseUrl);
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const answer = await new Promise<RawAnswer>((resolve, reject) => {
      const sent = send(
        url,
        { method, headers: { Authorization: `Bearer ${token}`, ...headers } },
        (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () =>
            resolve({
              status: response.statusCode ?? 0,
              headers: Object.fromEntries(
                Object.entries(response.headers).map(([name, value]) => [name, value?.toString()]),
              ),
              body: Buffer.concat(chunks),
            }),
          );
        },
      );
      sent.on('error', reject);
      sent.end();
    });
    const text = (
      answer.headers['content-encoding'] === 'gzip' ? gunzipSync(answer.body) : answer.body
    ).toString();
    api.conformance.assertConforms(method, path, {
      ...answer,
      body: text !== '' && /json/.test(answer.headers['content-type'] ?? '') ? JSON.parse(text) : text,
    });
    return answer;
  };

  it('gzips a body of 1 KiB or more for a client that accepts it, with the same weak tag, and revalidates it', async () => {
    const plain = await raw(SETTLED_PAGE, { 'Accept-Encoding': 'identity' });
    const zipped = await raw(SETTLED_PAGE, { 'Accept-Encoding': 'gzip' });
    const revalidated = await raw(SETTLED_PAGE, {
      'Accept-Encoding': 'gzip',
      'If-None-Match': plain.headers.etag!,
    });

    expect(plain.body.length).toBeGreaterThan(1024);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(zipped.headers.vary).toContain('Accept-Encoding');
    expect(zipped.body.length).toBeLessThan(plain.body.length / 2);
    expect(gunzipSync(zipped.body).toString()).toBe(plain.body.toString());
    expect(zipped.headers.etag).toBe(plain.headers.etag);
    expect(revalidated.status).toBe(304);
    expect(revalidated.body.length).toBe(0);
  });

  it.each([
    ['no Accept-Encoding', {}],
    ['gzip refused with q=0', { 'Accept-Encoding': 'gzip;q=0, identity' }],
  ])('sends identity for %s', async (_case, headers: Record<string, string>) => {
    const answer = await raw(SETTLED_PAGE, headers);

    expect(answer.status).toBe(200);
    expect(answer.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(answer.body.toString())).toHaveProperty('meta');
  });

  it('leaves small bodies and HEAD answers uncompressed', async () => {
    const small = await raw('/api/processes/NO-SUCH-PROCESS-0', { 'Accept-Encoding': 'gzip' });
    const head = await raw(SETTLED_PAGE, { 'Accept-Encoding': 'gzip' }, 'HEAD');

    expect(small.status).toBe(404);
    expect(small.body.length).toBeLessThan(1024);
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
    expect(head.headers['content-encoding']).toBeUndefined();
  });

  it('answers a plain HEAD with the headers of the GET and no body', async () => {
    const get = await raw(SETTLED_PAGE, {});
    const head = await raw(SETTLED_PAGE, {}, 'HEAD');

    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
    expect(head.headers['content-length']).toBe(String(get.body.length));
    expect(head.headers['content-type']).toBe(get.headers['content-type']);
    expect(head.headers.etag).toBe(get.headers.etag);
  });

  it('lets Node’s fetch decode what it asked gzip for', async () => {
    const plain = JSON.parse((await raw(SETTLED_PAGE, {})).body.toString()) as ProcessList;

    const answer = await fetch(new URL(SETTLED_PAGE, api.baseUrl), {
      headers: { Authorization: `Bearer ${token}`, 'Accept-Encoding': 'gzip' },
    });

    expect(answer.headers.get('content-encoding')).toBe('gzip');
    expect(((await answer.json()) as ProcessList).meta.totalItems).toBe(plain.meta.totalItems);
  });
});
