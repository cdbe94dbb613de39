import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';
import { OperationsGateway } from '../src/operations/operations.gateway.js';
import {
  anEvent,
  anOperationsDetail,
  anOperationsProcess,
} from '../src/testing/operations-process.factory.js';
import { FakeOperationsGateway } from '../src/testing/fake-operations.gateway.js';
import { syncNow } from './support/sync-now.js';
import { TestApp } from './support/test-app.js';

/** What reached the wire: status, headers and the raw body bytes, before any decoding. */
interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

describe('conditional requests and compression, as real clients send them', () => {
  const gateway = new FakeOperationsGateway();
  let testApp: TestApp;
  let origin: string;
  let token: string;

  beforeAll(async () => {
    for (let index = 0; index < 12; index++) {
      const process = anOperationsProcess();
      gateway.put(process, anOperationsDetail(process));
    }
    testApp = await TestApp.start({
      override: (builder) => builder.overrideProvider(OperationsGateway).useValue(gateway),
    });
    await syncNow(testApp);
    await testApp.addUser({ username: 'acme', password: 'acme-pass-1', customerIds: ['acme'] });
    token = await testApp.login('acme', 'acme-pass-1');
    await testApp.app.listen(0, '127.0.0.1');
    origin = `http://127.0.0.1:${(testApp.app.getHttpServer().address() as AddressInfo).port}`;
  });

  afterAll(() => testApp.close());

  const authorization = () => ({ Authorization: `Bearer ${token}` });
  const numero = () => gateway.all()[0]!.numero;

  /** Node's own HTTP client, so that no decoding hides what the service sent. */
  function raw(path: string, headers: Record<string, string>, method = 'GET'): Promise<RawAnswer> {
    return new Promise((resolve, reject) => {
      const sent = httpRequest(
        `${origin}${path}`,
        { method, headers: { ...authorization(), ...headers } },
        (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () =>
            resolve({
              status: response.statusCode ?? 0,
              headers: response.headers,
              body: Buffer.concat(chunks),
            }),
          );
        },
      );
      sent.on('error', reject);
      sent.end();
    });
  }

  describe.each([
    ['the list', () => '/api/processes'],
    ['a detail', () => `/api/processes/${numero()}`],
  ])('%s with Node’s fetch', (_case, path) => {
    it('gets a 304 when revalidating, although fetch says Cache-Control: no-cache', async () => {
      const first = await fetch(`${origin}${path()}`, { headers: authorization() });
      expect(first.status).toBe(200);
      const etag = first.headers.get('etag')!;
      expect(etag).toMatch(/^W\/"[^"]+"$/);

      const revalidated = await fetch(`${origin}${path()}`, {
        headers: {
          ...authorization(),
          'If-None-Match': etag,
          'Cache-Control': 'no-cache',
          Pragma: 'no-cache',
        },
      });

      expect(revalidated.status).toBe(304);
      expect(await revalidated.text()).toBe('');
      expect(revalidated.headers.get('etag')).toBe(etag);
      expect(revalidated.headers.get('cache-control')).toBe('private, no-cache');
      expect(revalidated.headers.get('vary')).toContain('Accept-Encoding');
      expect(revalidated.headers.get('x-request-id')).toBeTruthy();
    });

    it.each([
      ['the strong form of the tag', (tag: string) => tag.slice(2)],
      ['a list holding the tag', (tag: string) => `"stale-one", ${tag}`],
      ['the wildcard', () => '*'],
    ])('gets a 304 for %s', async (_form, ifNoneMatch) => {
      const etag = (await fetch(`${origin}${path()}`, { headers: authorization() })).headers.get('etag')!;
      const revalidated = await fetch(`${origin}${path()}`, {
        headers: { ...authorization(), 'If-None-Match': ifNoneMatch(etag) },
      });
      expect(revalidated.status).toBe(304);
    });

    it('gets the whole answer for a tag that is not current', async () => {
      const answer = await fetch(`${origin}${path()}`, {
        headers: { ...authorization(), 'If-None-Match': 'W/"not-it", "nor-this"' },
      });
      expect(answer.status).toBe(200);
      expect((await answer.text()).length).toBeGreaterThan(0);
    });
  });

  describe('compression', () => {
    it('gzips a body of 1 KiB or more for a client that accepts it, with the same weak tag', async () => {
      const plain = await raw('/api/processes', { 'Accept-Encoding': 'identity' });
      const zipped = await raw('/api/processes', { 'Accept-Encoding': 'gzip' });

      expect(plain.body.length).toBeGreaterThan(1024);
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(zipped.headers['content-encoding']).toBe('gzip');
      expect(zipped.headers.vary).toContain('Accept-Encoding');
      expect(zipped.body.length).toBeLessThan(plain.body.length / 2);
      expect(gunzipSync(zipped.body).toString()).toBe(plain.body.toString());
      expect(zipped.headers.etag).toBe(plain.headers.etag);

      const revalidated = await raw('/api/processes', {
        'Accept-Encoding': 'gzip',
        'If-None-Match': String(plain.headers.etag),
      });
      expect(revalidated.status).toBe(304);
      expect(revalidated.body.length).toBe(0);
    });

    it.each([
      ['no Accept-Encoding', {}],
      ['gzip refused with q=0', { 'Accept-Encoding': 'gzip;q=0, identity' }],
    ])('sends identity for %s', async (_case, headers: Record<string, string>) => {
      const answer = await raw('/api/processes', headers);
      expect(answer.status).toBe(200);
      expect(answer.headers['content-encoding']).toBeUndefined();
      expect(JSON.parse(answer.body.toString())).toHaveProperty('meta');
    });

    it('leaves small bodies and HEAD answers uncompressed', async () => {
      const small = await raw('/api/processes/NO-SUCH-PROCESS', { 'Accept-Encoding': 'gzip' });
      expect(small.status).toBe(404);
      expect(small.body.length).toBeLessThan(1024);
      expect(small.headers['content-encoding']).toBeUndefined();

      const head = await raw('/api/processes', { 'Accept-Encoding': 'gzip' }, 'HEAD');
      expect(head.status).toBe(200);
      expect(head.body.length).toBe(0);
      expect(head.headers['content-encoding']).toBeUndefined();
    });

    it('answers a plain HEAD with the headers of the GET and no body', async () => {
      const [get, head] = [await raw('/api/processes', {}), await raw('/api/processes', {}, 'HEAD')];
      expect(head.status).toBe(200);
      expect(head.body.length).toBe(0);
      expect(head.headers['content-length']).toBe(String(get.body.length));
      expect(head.headers['content-type']).toBe(get.headers['content-type']);
      expect(head.headers.etag).toBe(get.headers.etag);
    });

    it('lets Node’s fetch decode what it asked gzip for', async () => {
      const answer = await fetch(`${origin}/api/processes`, {
        headers: { ...authorization(), 'Accept-Encoding': 'gzip' },
      });
      expect(answer.headers.get('content-encoding')).toBe('gzip');
      expect(((await answer.json()) as { meta: { totalItems: number } }).meta.totalItems).toBe(12);
    });
  });

  // Last: it changes what the operations system holds.
  describe('the list’s tag as sync writes', () => {
    it('stays while nothing changes, and moves when an item on the page does', async () => {
      const before = await raw('/api/processes', {});
      await syncNow(testApp);
      const unchanged = await raw('/api/processes', { 'If-None-Match': String(before.headers.etag) });
      expect(unchanged.status).toBe(304);

      const changed = gateway.all()[3]!;
      gateway.put({
        ...changed,
        updatedAt: '2026-03-02T12:00:00Z',
        events: [
          ...changed.events,
          anEvent({ id: 'evt-later', code: 'NOTE', occurredAt: '2026-03-02T11:00:00Z' }),
        ],
      });
      await syncNow(testApp);

      const after = await raw('/api/processes', { 'If-None-Match': String(before.headers.etag) });
      expect(after.status).toBe(200);
      expect(after.body.toString()).toContain('evt-later');
      expect(after.headers.etag).not.toBe(before.headers.etag);
      const revalidated = await raw('/api/processes', { 'If-None-Match': String(after.headers.etag) });
      expect(revalidated.status).toBe(304);
    });
  });
});
