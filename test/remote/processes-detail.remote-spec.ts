/**
 * The detail of a process, against the deployment: its agreement with the list, revalidation by
 * ETag, compression, and what another customer's user sees of it (nothing).
 */
import type { Problem, ProcessDetail, ProcessList } from './support/api-types.js';
import { RemoteApi, ROOM_WAIT_MS } from './support/remote-api.js';
import { remoteConfig } from './support/remote-config.js';

describe('the detail of a process', () => {
  let api: RemoteApi;
  let token: string;
  /** A delivered process: nothing moves it while the tests read it. */
  let settled: ProcessList['data'][number];
  let detailPath: string;

  beforeAll(async () => {
    api = await RemoteApi.connect();
    token = await api.signInFor(40);
    const delivered = await api.get<ProcessList>('/api/processes?status=DELIVERED&pageSize=1', { token });
    settled = delivered.body.data[0]!;
    detailPath = `/api/processes/${encodeURIComponent(settled.numero)}`;
  }, ROOM_WAIT_MS);

  it('answers the whole process: the list item’s fields and follow-up, and the rest', async () => {
    const answer = await api.get<ProcessDetail>(detailPath, { token });

    expect(answer.status).toBe(200);
    expect(answer.headers['cache-control']).toBe('private, no-cache');
    expect(answer.body).toMatchObject({
      numero: settled.numero,
      status: settled.status,
      summary: settled.summary,
      follow: settled.follow,
      lastFollow: settled.lastFollow,
    });
    expect(answer.body.parties.length).toBeGreaterThan(0);
  });

  it('finds a process by its numero in any case', async () => {
    const answer = await api.get<ProcessDetail>(`/api/processes/${settled.numero.toLowerCase()}`, { token });

    expect(answer.status).toBe(200);
    expect(answer.body.numero).toBe(settled.numero);
  });

  it.each([
    ['the tag as it came', (tag: string) => tag],
    ['its strong form', (tag: string) => tag.replace(/^W\//, '')],
    ['a list holding it', (tag: string) => `"stale-one", ${tag}`],
    ['the wildcard', () => '*'],
  ])('answers 304 with no body to a revalidation by %s', async (_case, ifNoneMatch) => {
    const first = await api.get(detailPath, { token });

    const again = await api.get(detailPath, {
      token,
      headers: { 'If-None-Match': ifNoneMatch(first.headers.etag!), 'Cache-Control': 'no-cache' },
    });

    expect(again.status).toBe(304);
    expect(again.body).toBe('');
    expect(again.headers.etag).toBe(first.headers.etag);
    expect(again.headers['cache-control']).toBe('private, no-cache');
    expect(again.headers['x-request-id']).toBeTruthy();
  });

  it('answers the whole process to a tag that is not its own', async () => {
    const answer = await api.get<ProcessDetail>(detailPath, {
      token,
      headers: { 'If-None-Match': 'W/"not-it"' },
    });

    expect(answer.status).toBe(200);
    expect(answer.body.numero).toBe(settled.numero);
  });

  it('revalidates the list by its ETag too, although the client says no-cache', async () => {
    const path = '/api/processes?status=DELIVERED&sort=numero&pageSize=5';
    const first = await api.get(path, { token });

    const again = await api.get(path, {
      token,
      headers: { 'If-None-Match': first.headers.etag!, 'Cache-Control': 'no-cache', Pragma: 'no-cache' },
    });

    expect(again.status).toBe(304);
    expect(again.body).toBe('');
    expect(again.headers.etag).toBe(first.headers.etag);
    expect(again.headers['cache-control']).toBe('private, no-cache');
    expect(again.headers.vary).toMatch(/Accept-Encoding/);
  });

  it('gzips the answer for a client that accepts it, under the same weak tag as the plain one', async () => {
    const plain = await api.get(detailPath, { token, headers: { 'Accept-Encoding': 'identity' } });
    const zipped = await api.get(detailPath, { token, headers: { 'Accept-Encoding': 'gzip' } });

    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(zipped.headers.vary).toMatch(/Accept-Encoding/);
    expect(zipped.headers.etag).toMatch(/^W\//);
    expect(zipped.headers.etag).toBe(plain.headers.etag);
    expect(zipped.body).toEqual(plain.body);
  });

  it('answers 404 for a process that does not exist, and 400 for a numero that cannot be one', async () => {
    const unknown = await api.get<Problem>('/api/processes/NO-SUCH-PROCESS-0', { token });
    const malformed = await api.get<Problem>(`/api/processes/${encodeURIComponent('not a numero!')}`, {
      token,
    });

    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ type: '/problems/not-found', status: 404 });
    expect(malformed.status).toBe(400);
    expect(malformed.body.errors).toEqual([{ in: 'path', name: 'numero', message: expect.any(String) }]);
  });

  (remoteConfig.otherUser === null ? describe.skip : describe)(
    'another customer’s user (E2E_OTHER_USERNAME)',
    () => {
      let otherToken: string;

      beforeAll(async () => {
        otherToken = (await api.signIn(remoteConfig.otherUser!)).accessToken;
      });

      it('lists none of this user’s processes', async () => {
        const mine = await api.get<ProcessList>('/api/processes?pageSize=100&sort=numero', { token });
        const theirs = await api.get<ProcessList>('/api/processes?pageSize=100&sort=numero', {
          token: otherToken,
        });
        const myNumeros = new Set(mine.body.data.map((item) => item.numero));

        expect(theirs.status).toBe(200);
        expect(theirs.body.data.filter((item) => myNumeros.has(item.numero))).toEqual([]);
      });

      it('gets for this user’s process the very 404 of a process that does not exist', async () => {
        const forbidden = await api.get<Problem>(detailPath, { token: otherToken });
        const missing = await api.get<Problem>('/api/processes/NO-SUCH-PROCESS-0', { token: otherToken });
        const shape = ({ type, title, status }: Problem) => ({ type, title, status });

        expect(forbidden.status).toBe(404);
        expect(shape(forbidden.body)).toEqual(shape(missing.body));
        expect(Object.keys(forbidden.body).sort()).toEqual(Object.keys(missing.body).sort());
      });
    },
  );
});
