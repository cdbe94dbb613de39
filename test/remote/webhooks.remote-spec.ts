/**
 * Webhooks, against the deployment, delivered to the suite's own receiver (which the deployment
 * must be allowed to reach: demo mode allows http and loopback targets). Signatures are checked
 * with Standard Webhooks' own library. Every subscription made is deleted at the end.
 */
import { randomUUID } from 'node:crypto';
import type { Change, CreatedWebhook, Problem, Webhook, WebhookDeliveriesPage } from './support/api-types.js';
import { readFeed } from './support/change-feed.js';
import { eventually } from './support/eventually.js';
import { RemoteApi, ROOM_WAIT_MS } from './support/remote-api.js';
import { remoteConfig } from './support/remote-config.js';
import { SuiteSubscriptions } from './support/suite-subscriptions.js';
import { signedWith, WebhookReceiver, type Delivery } from './support/webhook-receiver.js';

/** How many of the latest changes a subscription is started before. */
const BACKLOG = 3;
/**
 * Generous bounds (a busy machine delays delivery): a delivery comes within a second or so, a
 * retry 5 s (±10%) after a failure.
 */
const DELIVERED_WITHIN_MS = 15_000;
const RETRIED_WITHIN_MS = 30_000;

const api = await RemoteApi.connect();
/** Operations some deployments have: their tests run where the served document declares them. */
const whereServed = (operationId: string) =>
  api.conformance.operationIds().includes(operationId) ? it : it.skip;

describe('webhooks', () => {
  let token: string;
  let receiver: WebhookReceiver;
  let subscriptions: SuiteSubscriptions;
  /** The change before the latest few, and those few: what a subscription after it delivers first. */
  let from: Change;
  let backlog: Change[];
  /** The subscription the delivery tests share, on a path of its own, failing its first request. */
  let ordered: CreatedWebhook;
  const path = `ordered-${randomUUID()}`;

  const deliveriesOf = (id: string, query = '') =>
    api.get<WebhookDeliveriesPage>(`/api/webhooks/${id}/deliveries${query}`, { token });
  /** The requests at the shared path once there are `count`; failing, says what came and what was tried. */
  const requestsAt = async (count: number, withinMs: number) => {
    try {
      return await eventually(`${count} requests at /${path}`, withinMs, () =>
        Promise.resolve(receiver.at(path).length >= count ? receiver.at(path) : undefined),
      );
    } catch (error) {
      const came = receiver.at(path).map((delivery) => `${delivery.id} ${delivery.answered}`);
      const tried = (await deliveriesOf(ordered.id)).body.data;
      throw new Error(
        `${(error as Error).message}; came: ${came.join(', ')}; attempts: ${JSON.stringify(tried)}`,
      );
    }
  };
  /** The first request at the shared path, after the first `after` of them, that `matches`. */
  const nextAt = (what: string, after: number, matches: (delivery: Delivery) => boolean) =>
    eventually(what, DELIVERED_WITHIN_MS, () =>
      Promise.resolve(receiver.at(path).slice(after).find(matches)),
    );

  beforeAll(async () => {
    token = await api.signInFor(30);
    receiver = await WebhookReceiver.start();
    subscriptions = new SuiteSubscriptions(api, token);
    await subscriptions.deleteAll();
    const { changes } = await readFeed(api, token);
    from = changes.at(-BACKLOG - 1)!;
    backlog = changes.slice(-BACKLOG);
    let failedOnce = false;
    receiver.answer = (request) => {
      if (!request.path.endsWith(path) || failedOnce) return 200;
      failedOnce = true;
      return 500;
    };
  }, ROOM_WAIT_MS);

  afterAll(async () => {
    await subscriptions?.deleteAll();
    await receiver?.close();
  });

  it('creates a subscription at a cursor, showing its secret once; reads and lists it without', async () => {
    ordered = await subscriptions.create({ url: receiver.urlFor(path), after: from.cursor });

    const read = await api.get<Webhook>(`/api/webhooks/${ordered.id}`, { token });
    const listed = await api.get<{ data: Webhook[] }>('/api/webhooks', { token });

    expect(ordered).toMatchObject({
      status: 'ACTIVE',
      position: from.cursor,
      secret: expect.stringMatching(/^whsec_/),
    });
    expect(read.status).toBe(200);
    expect(read.body).not.toHaveProperty('secret');
    expect(read.body).toMatchObject({ id: ordered.id, url: ordered.url });
    expect(listed.body.data.map((webhook) => webhook.id)).toContain(ordered.id);
  });

  it(
    'tries a change again after the receiver answers 500, with the same webhook-id, the next ones waiting',
    async () => {
      const [failed, retried] = await requestsAt(2, RETRIED_WITHIN_MS);

      expect(failed!.answered).toBe(500);
      expect(failed!.id).toBe(backlog[0]!.cursor);
      expect(retried!.id).toBe(failed!.id);
      expect(retried!.answered).toBe(200);
      const attempts = await deliveriesOf(ordered.id);
      expect(attempts.body.data.filter((attempt) => attempt.messageId === failed!.id)).toEqual([
        expect.objectContaining({ attempt: 2, responseStatus: 200, error: null }),
        expect.objectContaining({ attempt: 1, responseStatus: 500, error: expect.any(String) }),
      ]);
    },
    RETRIED_WITHIN_MS + 15_000,
  );

  it('pages the attempts newest first by limit and after', async () => {
    const first = await deliveriesOf(ordered.id, '?limit=1');
    const second = await deliveriesOf(ordered.id, `?limit=1&after=${first.body.next}`);

    expect(first.body.hasMore).toBe(true);
    const [newer, older] = [first.body.data, second.body.data].map((page) => {
      expect(page).toHaveLength(1);
      return page[0]!;
    });
    expect(older!.id).not.toBe(newer!.id);
    expect(older!.attemptedAt <= newer!.attemptedAt).toBe(true);
  });

  it('delivers the changes after its position in feed order, each the change as the feed has it, signed', async () => {
    const received = await requestsAt(BACKLOG + 1, DELIVERED_WITHIN_MS);
    const accepted = received.filter((delivery) => delivery.answered === 200).slice(0, BACKLOG);

    expect(accepted.map((delivery) => delivery.id)).toEqual(backlog.map((change) => change.cursor));
    for (const [index, delivery] of accepted.entries()) {
      expect(delivery.contentType).toMatch(/^application\/json/);
      expect(delivery.payload).toEqual({
        type: `process.${backlog[index]!.kind.toLowerCase()}`,
        timestamp: backlog[index]!.recordedAt,
        data: backlog[index],
      });
      expect(signedWith(ordered.secret, delivery)).toBe(true);
    }
  });

  /**
   * The backlog delivered again after the first `before` requests: from its first change on (an
   * attempt in flight when the replay was asked may come first).
   */
  const backlogAgainAfter = (before: number) =>
    eventually('the backlog delivered again', DELIVERED_WITHIN_MS, () => {
      const since = receiver.at(path).slice(before);
      const start = since.findIndex((delivery) => delivery.id === backlog[0]!.cursor);
      return Promise.resolve(
        start >= 0 && since.length >= start + BACKLOG ? since.slice(start, start + BACKLOG) : undefined,
      );
    });

  it('replays from a cursor: the same changes again, with the same webhook-ids', async () => {
    const before = receiver.at(path).length;

    const replayed = await api.post<Webhook>(`/api/webhooks/${ordered.id}/replay`, {
      token,
      body: { after: from.cursor },
    });
    const again = await backlogAgainAfter(before);

    expect(replayed.status).toBe(202);
    expect(again.map((delivery) => delivery.id)).toEqual(backlog.map((change) => change.cursor));
  });

  it('signs with the old and the new secret while a rotation overlaps', async () => {
    const before = receiver.at(path).length;
    const rotated = await api.post<{ secret: string }>(`/api/webhooks/${ordered.id}/secret`, { token });
    await api.post(`/api/webhooks/${ordered.id}/replay`, { token, body: { after: from.cursor } });

    const [signed] = await backlogAgainAfter(before);

    expect(rotated.status).toBe(200);
    expect(rotated.headers['cache-control']).toBe('no-store');
    expect(rotated.body.secret).not.toBe(ordered.secret);
    // One attempt at a time: only one in flight at the rotation may carry the old signature alone.
    const signedOnce = receiver
      .at(path)
      .slice(before)
      .filter((delivery) => !delivery.signature.includes(' '));
    expect(signedOnce.length).toBeLessThanOrEqual(1);
    expect(signed!.signature.split(' ')).toHaveLength(2);
    expect([signedWith(rotated.body.secret, signed!), signedWith(ordered.secret, signed!)]).toEqual([
      true,
      true,
    ]);
    expect(signedWith(`whsec_${Buffer.alloc(32).toString('base64')}`, signed!)).toBe(false);
  });

  whereServed('sendWebhookTest')(
    'sends a signed test message at once, outside the feed, when asked',
    async () => {
      const before = receiver.at(path).length;

      const sent = await api.post(`/api/webhooks/${ordered.id}/test`, { token });
      const message = await nextAt('the test message', before, (delivery) =>
        delivery.body.includes('"webhook.test"'),
      );

      expect(sent.status).toBe(202);
      expect(JSON.parse(message.body)).toEqual({
        type: 'webhook.test',
        timestamp: expect.any(String),
        data: {},
      });
      expect(signedWith(ordered.secret, message)).toBe(true);
    },
  );

  whereServed('resendWebhookDelivery')(
    'sends one attempt’s message again, with its webhook-id, when asked',
    async () => {
      const [latest] = (await deliveriesOf(ordered.id, '?limit=1')).body.data;
      const before = receiver.at(path).length;

      const resent = await api.post(`/api/webhooks/${ordered.id}/deliveries/${latest!.id}/resend`, { token });
      const again = await nextAt(
        'the message sent again',
        before,
        (delivery) => delivery.id === latest!.messageId,
      );

      expect(resent.status).toBe(202);
      expect(signedWith(ordered.secret, again)).toBe(true);
    },
  );

  it('updates a subscription, pauses and resumes it, and deletes it', async () => {
    const created = await subscriptions.create({ url: receiver.urlFor(`idle-${randomUUID()}`) });
    const at = `/api/webhooks/${created.id}`;
    const elsewhere = receiver.urlFor(`elsewhere-${randomUUID()}`);

    const updated = await api.request<Webhook>('PATCH', at, {
      token,
      body: { url: elsewhere, description: null, kinds: ['STATUS_CHANGED'], status: 'PAUSED' },
    });
    const resumed = await api.request<Webhook>('PATCH', at, {
      token,
      body: { status: 'ACTIVE', kinds: null },
    });
    const deleted = await api.request('DELETE', at, { token });
    const gone = await api.get<Problem>(at, { token });

    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({
      url: elsewhere,
      description: null,
      kinds: ['STATUS_CHANGED'],
      status: 'PAUSED',
    });
    expect(resumed.body).toMatchObject({ url: elsewhere, kinds: null, status: 'ACTIVE' });
    expect(deleted.status).toBe(204);
    expect(gone.status).toBe(404);
  });

  it.each([
    ['a URL that is not http(s)', { url: 'ftp://example.com/hooks' }, 'url'],
    ['an unknown kind', { url: 'https://example.com/hooks', kinds: ['NOPE'] }, 'kinds'],
    ['a member it does not take', { url: 'https://example.com/hooks', colour: 'blue' }, 'colour'],
  ])('refuses %s, naming the field', async (_case, body, name) => {
    const answer = await api.post<Problem>('/api/webhooks', { token, body });

    expect(answer.status).toBe(400);
    expect(answer.body.errors?.map((error) => error.name)).toContain(name);
  });

  it('names every offending field of a create, an update, a replay and a deliveries query', async () => {
    const created = await subscriptions.create({ url: receiver.urlFor(`idle-${randomUUID()}`) });
    const fields = (answer: { body: Problem }) =>
      (answer.body.errors ?? []).map((error) => error.name).sort();

    const create = await api.post<Problem>('/api/webhooks', {
      token,
      body: { url: 42, kinds: ['NOPE'], description: 'x'.repeat(300), after: 'bad', extra: true },
    });
    const both = await api.post<Problem>('/api/webhooks', {
      token,
      body: { url: created.url, after: 'AAAAAAAAAAAAAAAA', since: '2026-03-14T00:00:00Z' },
    });
    const empty = await api.post<Problem>('/api/webhooks', { token, body: {} });
    const update = await api.request<Problem>('PATCH', `/api/webhooks/${created.id}`, {
      token,
      body: { status: 'DISABLED', url: null },
    });
    const replay = await api.post<Problem>(`/api/webhooks/${created.id}/replay`, { token, body: {} });
    const deliveries = await deliveriesOf(created.id, '?limit=0');

    expect([create, both, empty, update, replay, deliveries].map((answer) => answer.status)).toEqual([
      400, 400, 400, 400, 400, 400,
    ]);
    expect(fields(create)).toEqual(['after', 'description', 'extra', 'kinds', 'url']);
    expect(fields(both)).toContain('since');
    expect(fields(update)).toEqual(['status', 'url']);
    expect(fields(replay)).toEqual(['after']);
  });

  it('refuses a body that is not JSON with 415, and a request without a token with 401', async () => {
    const notJson = await api.post<Problem>('/api/webhooks', {
      token,
      rawBody: 'url=x',
      headers: { 'Content-Type': 'text/plain' },
    });
    const anonymous = await api.get<Problem>('/api/webhooks');

    expect(notJson.status).toBe(415);
    expect(anonymous.status).toBe(401);
  });

  it('rotates the secret, answering the new one only, not to be stored', async () => {
    const created = await subscriptions.create({ url: receiver.urlFor(`idle-${randomUUID()}`) });

    const rotated = await api.post<{ secret: string }>(`/api/webhooks/${created.id}/secret`, { token });

    expect(rotated.status).toBe(200);
    expect(rotated.body).toEqual({ secret: expect.stringMatching(/^whsec_/) });
    expect(rotated.body.secret).not.toBe(created.secret);
    expect(rotated.headers['cache-control']).toBe('no-store');
  });

  it('lists no deliveries for a new subscription at the end of the feed', async () => {
    const created = await subscriptions.create({ url: receiver.urlFor(`idle-${randomUUID()}`) });

    const deliveries = await deliveriesOf(created.id);

    expect(deliveries.body).toEqual({ data: [], next: null, hasMore: false });
  });

  it('allows a user 10 subscriptions, 409 beyond', async () => {
    const held = (await api.get<{ data: Webhook[] }>('/api/webhooks', { token })).body.data.length;
    const filling: string[] = [];
    for (let index = held; index < 10; index++) {
      filling.push((await subscriptions.create({ url: receiver.urlFor(`idle-${randomUUID()}`) })).id);
    }

    const beyond = await api.post<Problem>('/api/webhooks', {
      token,
      body: { url: receiver.urlFor('beyond') },
    });

    expect(beyond.status).toBe(409);
    expect(beyond.body).toMatchObject({ type: '/problems/webhook-limit-reached', status: 409 });
    for (const id of filling) await api.request('DELETE', `/api/webhooks/${id}`, { token });
  });

  it('refuses a replay from before the retention with 410, and an unknown subscription with 404', async () => {
    const tooOld = await api.post<Problem>(`/api/webhooks/${ordered.id}/replay`, {
      token,
      body: { since: '2000-01-01T00:00:00Z' },
    });
    const unknown = randomUUID();
    const answers = [
      await api.get(`/api/webhooks/${unknown}`, { token }),
      await api.request('PATCH', `/api/webhooks/${unknown}`, { token, body: { status: 'PAUSED' } }),
      await api.request('DELETE', `/api/webhooks/${unknown}`, { token }),
      await api.post(`/api/webhooks/${unknown}/secret`, { token }),
      await api.post(`/api/webhooks/${unknown}/replay`, { token, body: { after: from.cursor } }),
      await deliveriesOf(unknown),
    ];

    expect(tooOld.status).toBe(410);
    expect(tooOld.body.type).toBe('/problems/cursor-expired');
    expect(answers.map((answer) => answer.status)).toEqual([404, 404, 404, 404, 404, 404]);
  });

  (remoteConfig.otherUser === null ? it.skip : it)(
    'shows another user’s subscription, or a malformed id, as a missing one, and lets them do nothing to it',
    async () => {
      const other = (await api.signIn(remoteConfig.otherUser!)).accessToken;

      const at = `/api/webhooks/${ordered.id}`;
      const answers = [
        await api.get<Problem>(at, { token: other }),
        await api.get<Problem>(`${at}/deliveries`, { token: other }),
        await api.request<Problem>('PATCH', at, { token: other, body: { status: 'PAUSED' } }),
        await api.post<Problem>(`${at}/secret`, { token: other }),
        await api.post<Problem>(`${at}/replay`, { token: other, body: { after: from.cursor } }),
        await api.request<Problem>('DELETE', at, { token: other }),
        await api.get<Problem>('/api/webhooks/not-a-uuid', { token: other }),
      ];
      const listed = await api.get<{ data: Webhook[] }>('/api/webhooks', { token: other });
      const own = await api.get<Webhook>(at, { token });

      expect(answers.map((answer) => [answer.status, answer.body.type])).toEqual(
        answers.map(() => [404, '/problems/not-found']),
      );
      expect(listed.body.data.map((webhook) => webhook.id)).not.toContain(ordered.id);
      expect(own.body.status).toBe('ACTIVE');
    },
  );
});
