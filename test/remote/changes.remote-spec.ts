/**
 * The change feed and its stream, against the deployment: paging by cursor, resuming the stream
 * after Last-Event-ID, the refusals, the per-user stream limit, and (with a short token lifetime)
 * the stream's end at the token's expiry.
 */
import type { SseClient } from '../support/sse-client.js';
import type { Change, ChangesPage, Problem } from './support/api-types.js';
import { readFeed } from './support/change-feed.js';
import { RemoteApi, ROOM_WAIT_MS } from './support/remote-api.js';
import { remoteConfig } from './support/remote-config.js';

/** How many of the latest changes the resume tests replay. */
const REPLAYED = 3;
/** The streams a user may hold open at once. */
const STREAMS_PER_USER = 5;

describe('the change feed and its stream', () => {
  let api: RemoteApi;
  let token: string;
  const streams: SseClient[] = [];

  /** The change before the latest few, and those few: what a resume from it must replay first. */
  const latest = async (): Promise<{ from: Change; then: Change[] }> => {
    const { changes } = await readFeed(api, token);
    expect(changes.length).toBeGreaterThan(REPLAYED);
    return { from: changes.at(-REPLAYED - 1)!, then: changes.slice(-REPLAYED) };
  };
  const open = async (query: string, headers: Record<string, string> = {}, as = token) => {
    const answer = await api.openStream(query, as, headers);
    if (answer.stream === null)
      throw new Error(`the stream answered ${answer.status}: ${JSON.stringify(answer.body)}`);
    streams.push(answer.stream);
    return answer.stream;
  };
  const changesOf = async (stream: SseClient, count: number) =>
    (await stream.waitForEvents(count)).map((event) => ({
      id: event.id,
      change: JSON.parse(event.data) as Change,
    }));

  beforeAll(async () => {
    api = await RemoteApi.connect();
    token = await api.signInFor(60);
  }, ROOM_WAIT_MS);

  afterEach(() => {
    for (const stream of streams.splice(0)) stream.close();
  });

  it('serves every change once, in order, following next from the oldest retained one', async () => {
    const { changes, next } = await readFeed(api, token);

    expect(changes.length).toBeGreaterThan(0);
    expect(new Set(changes.map((change) => change.cursor)).size).toBe(changes.length);
    const recorded = changes.map((change) => change.recordedAt);
    expect(recorded).toEqual([...recorded].sort());
    expect(next).toBe(changes.at(-1)!.cursor);
  });

  it('pages by limit: each page goes on exactly where the last one stopped', async () => {
    const first = await api.get<ChangesPage>('/api/changes?limit=5', { token });
    const second = await api.get<ChangesPage>(`/api/changes?limit=5&after=${first.body.next}`, { token });
    const both = await api.get<ChangesPage>('/api/changes?limit=10', { token });

    expect(first.status).toBe(200);
    expect(first.headers['cache-control']).toBe('private, no-cache');
    expect(first.body.hasMore).toBe(true);
    expect([...first.body.data, ...second.body.data]).toEqual(both.body.data);
  });

  it('starts from an instant with since', async () => {
    const { from } = await latest();

    const answer = await api.get<ChangesPage>(`/api/changes?since=${from.recordedAt}`, { token });

    expect(answer.status).toBe(200);
    expect(answer.body.data.length).toBeGreaterThan(0);
    expect(answer.body.data.every((change) => change.recordedAt >= from.recordedAt)).toBe(true);
  });

  it.each([
    ['a malformed cursor', 'after=nope', 400, '/problems/invalid-request'],
    [
      'after together with since',
      'after=AAAAAAAAAAAAAAAA&since=2026-01-01T00:00:00Z',
      400,
      '/problems/invalid-request',
    ],
    ['a limit out of range', 'limit=501', 400, '/problems/invalid-request'],
    ['a since older than the retention', 'since=2000-01-01T00:00:00Z', 410, '/problems/cursor-expired'],
  ])('refuses %s', async (_case, query, status, type) => {
    const answer = await api.get<Problem>(`/api/changes?${query}`, { token });

    expect(answer.status).toBe(status);
    expect(answer.body.type).toBe(type);
  });

  it.each<[string, string[]]>([
    ['limit=0', ['limit']],
    ['limit=501', ['limit']],
    ['limit=ten', ['limit']],
    ['after=', ['after']],
    ['after=not-a-cursor', ['after']],
    ['after=AAAAAAAAAAEAAAAA', ['after']],
    ['since=yesterday', ['since']],
    ['since=2026-03-14', ['since']],
    ['since=10000-01-01T00:00:00Z', ['since']],
    ['after=AAAAAAAAAAE&since=2026-03-14T00:00:00Z', ['after', 'since']],
    ['limit=1&limit=2', ['limit']],
    ['cursor=x', ['cursor']],
  ])('refuses ?%s with a problem naming each bad parameter', async (query, names) => {
    const answer = await api.get<Problem>(`/api/changes?${query}`, { token });

    expect(answer.status).toBe(400);
    expect(answer.body.type).toBe('/problems/invalid-request');
    expect((answer.body.errors ?? []).map((error) => error.name).sort()).toEqual([...names].sort());
  });

  it('refuses a cursor and an instant together, naming since', async () => {
    const { next } = await readFeed(api, token);

    const answer = await api.get<Problem>(`/api/changes?after=${next}&since=2026-03-14T00:00:00Z`, { token });

    expect(answer.status).toBe(400);
    expect(answer.body.errors).toEqual([
      { in: 'query', name: 'since', message: 'must not be given together with after' },
    ]);
  });

  it('takes a since as late as the year 9999 allows, even past it in UTC: nothing yet', async () => {
    const answer = await api.get<ChangesPage>('/api/changes?since=9999-12-31T23:59:59-01:00', { token });

    expect(answer.status).toBe(200);
    expect(answer.body.data).toEqual([]);
    expect(answer.body.hasMore).toBe(false);
  });

  it('refuses the feed without a token', async () => {
    const answer = await api.get<Problem>('/api/changes');

    expect(answer.status).toBe(401);
    expect(answer.headers['www-authenticate']).toMatch(/^Bearer\b/);
  });

  it('resumes the stream after Last-Event-ID: the changes since, as the feed has them, each with its cursor', async () => {
    const { from, then } = await latest();

    const stream = await open('', { 'Last-Event-ID': from.cursor });
    const replayed = await changesOf(stream, REPLAYED);

    expect(stream.response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(stream.retry?.ms).toBe(5000);
    expect(replayed).toEqual(then.map((change) => ({ id: change.cursor, change })));
  });

  it('starts the stream after a cursor given in the query, Last-Event-ID winning over it', async () => {
    const { from, then } = await latest();

    const afterQuery = await open(`?after=${from.cursor}`);
    const bothGiven = await open(`?after=${from.cursor}`, { 'Last-Event-ID': then[0]!.cursor });

    expect((await changesOf(afterQuery, REPLAYED)).map((event) => event.id)).toEqual(
      then.map((c) => c.cursor),
    );
    expect((await changesOf(bothGiven, REPLAYED - 1)).map((event) => event.id)).toEqual(
      then.slice(1).map((c) => c.cursor),
    );
  });

  it('refuses a Last-Event-ID it did not send, a cursor past retention, and no token', async () => {
    const malformed = await api.openStream('', token, { 'Last-Event-ID': 'nope' });
    const tooOld = await api.openStream('?since=2000-01-01T00:00:00Z', token);
    const anonymous = await api.openStream('', undefined);

    expect(malformed.status).toBe(400);
    expect(malformed.body).toMatchObject({ errors: [{ in: 'header', name: 'Last-Event-ID' }] });
    expect(tooOld.status).toBe(410);
    expect(tooOld.body).toMatchObject({ type: '/problems/cursor-expired' });
    expect(anonymous.status).toBe(401);
  });

  it(`holds ${STREAMS_PER_USER} streams open per user, answers 429 beyond, and frees a slot when one closes`, async () => {
    const refusals = [];
    for (let attempt = 0; attempt <= STREAMS_PER_USER && refusals.length === 0; attempt += 1) {
      const answer = await api.openStream('', token);
      if (answer.stream === null) refusals.push(answer);
      else streams.push(answer.stream);
    }

    expect(refusals.map((refusal) => refusal.status)).toEqual([429]);
    expect(refusals[0]!.body).toMatchObject({ type: '/problems/rate-limited' });
    expect(refusals[0]!.headers['retry-after']).toMatch(/^\d+$/);
    expect(streams.length).toBeLessThanOrEqual(STREAMS_PER_USER);

    streams.pop()!.close();
    const start = Date.now();
    let reopened = await api.openStream('', token);
    while (reopened.stream === null && Date.now() - start < 5000) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      reopened = await api.openStream('', token);
    }
    expect(reopened.status).toBe(200);
    streams.push(reopened.stream!);
  });

  const shortToken = remoteConfig.shortTokenSeconds;
  (shortToken === null ? it.skip : it)(
    'ends the stream when its token expires, saying reauthenticate, and opens no more for it (E2E_SHORT_TOKEN_SECONDS)',
    async () => {
      const { accessToken } = await api.signIn();
      const stream = await open('', {}, accessToken);

      await stream.waitForClose((shortToken! + 5) * 1000);

      expect(stream.events.at(-1)).toEqual({
        id: undefined,
        event: 'reauthenticate',
        data: '{"reason":"token-expired"}',
      });
      const again = await api.openStream('', accessToken);
      expect(again.status).toBe(401);
      expect(again.body).toMatchObject({ type: '/problems/unauthorized' });
    },
    ((shortToken ?? 0) + 15) * 1000,
  );
});
