/**
 * Scenarios (with E2E_SANDBOX_URL and E2E_SANDBOX_KEY): the suite acts on the operations system
 * through the sandbox's control API, then sees the change everywhere the service shows it (list,
 * detail, feed, stream and a webhook) within the documented bound. The process it makes for the
 * user's customer stays, cancelled, as a record of the run.
 */
import { randomUUID } from 'node:crypto';
import type { SseClient } from '../support/sse-client.js';
import type { Change, ChangesPage, ProcessDetail, ProcessList, ProcessSummary } from './support/api-types.js';
import { readFeed } from './support/change-feed.js';
import { eventually } from './support/eventually.js';
import { RemoteApi, ROOM_WAIT_MS } from './support/remote-api.js';
import { remoteConfig } from './support/remote-config.js';
import { SandboxClient, type UpstreamProcess } from './support/sandbox-client.js';
import { SuiteSubscriptions } from './support/suite-subscriptions.js';
import { WebhookReceiver } from './support/webhook-receiver.js';

/**
 * The documented bounds from a control call: the change is in the list, the feed and on the stream
 * within 2 s, in the detail and at a webhook receiver within 3 s.
 */
const BOUND_MS = { list: 2000, feed: 2000, stream: 2000, detail: 3000, webhook: 3000 };
/** The requests one test's polling may make (list, detail and feed every 100 ms, for two steps at most). */
const REQUESTS_PER_TEST = 200;

/** What a step must make visible: a change of the feed, and the process as the list and detail show it. */
interface Expected {
  change: (change: Change) => boolean;
  /** A list query that finds the process, and what its item must show. */
  listedBy: string;
  item: (item: ProcessSummary) => boolean;
  detail: (detail: ProcessDetail) => boolean;
}

const sandboxUnset = remoteConfig.sandbox === null;

(sandboxUnset ? describe.skip : describe)('scenarios driven through the sandbox (E2E_SANDBOX_URL)', () => {
  let api: RemoteApi;
  let token: string;
  let sandbox: SandboxClient;
  let receiver: WebhookReceiver;
  let subscriptions: SuiteSubscriptions;
  let stream: SseClient;
  /** The end of the feed before the first step, and where it was read up to since. */
  let startCursor: string;
  let feedCursor: string;
  const seenInFeed: Change[] = [];
  const hookPath = `scenarios-${randomUUID()}`;
  let upstream: UpstreamProcess;
  /** The kind an ETA move is recorded as: its own where the document has it. */
  let etaKind: Change['kind'];

  /**
   * Makes the change, then waits until it shows in the feed, on the stream, at the webhook, in the
   * list and in the detail, each within its bound from the control call.
   */
  const seenEverywhere = async (expected: Expected, step: () => Promise<unknown>) => {
    const calledAt = Date.now();
    await step();
    const within = (where: keyof typeof BOUND_MS, probe: () => Promise<boolean> | boolean) =>
      eventually(
        `${upstream.numero} in the ${where}`,
        BOUND_MS[where],
        async () => ((await probe()) ? true : undefined),
        calledAt,
      );
    const matches = (change: Change) => change.numero === upstream.numero && expected.change(change);
    await Promise.all([
      within('feed', async () => {
        const page = await api.get<ChangesPage>(`/api/changes?after=${feedCursor}`, { token });
        seenInFeed.push(...page.body.data);
        feedCursor = page.body.next;
        return seenInFeed.some(matches);
      }),
      within('stream', () =>
        stream.events.some((event) => event.event === 'change' && matches(JSON.parse(event.data) as Change)),
      ),
      within('webhook', () => receiver.at(hookPath).some((delivery) => matches(delivery.payload.data))),
      within('list', async () => {
        const path = `/api/processes?${expected.listedBy}&sort=-updatedAt&pageSize=100`;
        const list = await api.get<ProcessList>(path, { token });
        const item = list.body.data.find((candidate) => candidate.numero === upstream.numero);
        return item !== undefined && expected.item(item);
      }),
      within('detail', async () => {
        const detail = await api.get<ProcessDetail>(`/api/processes/${upstream.numero}`, { token });
        return detail.status === 200 && expected.detail(detail.body);
      }),
    ]);
  };
  const hasEvent = (id: string) => (item: { follow: Array<{ id: string }> }) =>
    item.follow.some((event) => event.id === id);

  beforeAll(async () => {
    api = await RemoteApi.connect();
    token = (await api.signIn()).accessToken;
    sandbox = SandboxClient.fromConfig();
    receiver = await WebhookReceiver.start();
    subscriptions = new SuiteSubscriptions(api, token);
    await subscriptions.create({ url: receiver.urlFor(hookPath) });
    startCursor = (await readFeed(api, token)).next;
    feedCursor = startCursor;
    stream = (await api.openStream('', token)).stream!;
    const kinds = (
      api.conformance.document.components?.schemas?.ChangeDto as { properties: { kind: { enum: string[] } } }
    ).properties.kind.enum;
    etaKind = kinds.includes('ETA_CHANGED') ? 'ETA_CHANGED' : 'PROCESS_UPDATED';
  });

  // Never in the middle of a timed step: the user's rate-limit window has room before each test.
  beforeEach(() => api.roomFor(REQUESTS_PER_TEST, token), ROOM_WAIT_MS);

  afterAll(async () => {
    stream?.close();
    await subscriptions?.deleteAll();
    await receiver?.close();
  });

  it('refuses control calls without the key, for an unknown process, and with a bad body', async () => {
    const withoutKey = await sandbox.withoutKey().send('POST', '/control/processes', { customer: 'x' });
    const unknown = await sandbox.send('POST', '/control/processes/NO-SUCH-PROCESS-0/advance');
    const badBody = await sandbox.send('POST', '/control/processes', {
      customer: remoteConfig.sandboxCustomer,
      type: 'BARTER',
    });

    expect([withoutKey.status, unknown.status, badBody.status]).toEqual([401, 404, 400]);
    for (const answer of [withoutKey, unknown, badBody])
      expect(answer.contentType).toMatch(/^application\/problem\+json/);
  });

  it('creates a process: it appears as added, OPEN', async () => {
    await seenEverywhere(
      {
        change: (change) => change.kind === 'PROCESS_ADDED',
        listedBy: 'status=OPEN',
        item: (item) => item.status === 'OPEN' && item.summary.customer.id === remoteConfig.sandboxCustomer,
        detail: (detail) => detail.status === 'OPEN',
      },
      async () => {
        ({ process: upstream } = await sandbox.createProcess({
          customer: remoteConfig.sandboxCustomer,
          type: 'IMPORT',
          mode: 'SEA',
        }));
      },
    );
  });

  it('refuses a customs channel before a declaration is registered', async () => {
    expect(
      (await sandbox.send('POST', `/control/processes/${upstream.numero}/customs`, { channel: 'RED' }))
        .status,
    ).toBe(409);
  });

  it('advances it: the status change, from OPEN to the next of its path', async () => {
    let next = '';
    await seenEverywhere(
      {
        change: (change) =>
          change.kind === 'STATUS_CHANGED' && change.previousStatus === 'OPEN' && change.status === next,
        listedBy: 'status=BOOKED',
        item: (item) => item.status === next,
        detail: (detail) => detail.status === next,
      },
      async () => {
        ({ process: upstream } = await sandbox.advance(upstream.numero));
        next = upstream.status;
      },
    );
    expect(next).toBe('BOOKED');
  });

  it('moves its ETA: the new date in the list and the detail', async () => {
    const eta = new Date(Date.parse(upstream.eta ?? new Date().toISOString()) + 10 * 86_400_000)
      .toISOString()
      .slice(0, 10);
    await seenEverywhere(
      {
        change: (change) => change.kind === etaKind,
        listedBy: 'status=BOOKED',
        item: (item) => item.summary.eta === eta,
        detail: (detail) => detail.summary.eta === eta,
      },
      async () => {
        ({ process: upstream } = await sandbox.moveEta(upstream.numero, eta));
      },
    );
  });

  it('adds a follow-up event and retracts it: added, then removed, everywhere', async () => {
    let eventId = '';
    await seenEverywhere(
      {
        change: (change) => change.kind === 'FOLLOW_ADDED' && change.follow?.id === eventId,
        listedBy: 'status=BOOKED',
        item: (item) => hasEvent(eventId)(item),
        detail: (detail) => hasEvent(eventId)(detail),
      },
      async () => {
        const added = await sandbox.addEvent(upstream.numero, {
          code: 'NOTE',
          description: 'QA remote suite: a note to retract',
        });
        eventId = added.event.id;
      },
    );
    await seenEverywhere(
      {
        change: (change) => change.kind === 'FOLLOW_REMOVED' && change.follow?.id === eventId,
        listedBy: 'status=BOOKED',
        item: (item) => !hasEvent(eventId)(item),
        detail: (detail) => !hasEvent(eventId)(detail),
      },
      async () => {
        ({ process: upstream } = await sandbox.retractEvent(upstream.numero, eventId));
      },
    );
  });

  it('takes it to customs and sets the channel RED: the customs change, and the RED filter finds it', async () => {
    while (upstream.status !== 'CUSTOMS_CLEARANCE')
      ({ process: upstream } = await sandbox.advance(upstream.numero));

    await seenEverywhere(
      {
        change: (change) => change.kind === 'CUSTOMS_CHANGED' && change.customsChannel === 'RED',
        listedBy: 'customsChannel=RED',
        item: (item) => item.summary.customsChannel === 'RED',
        detail: (detail) => detail.summary.customsChannel === 'RED' && detail.customs?.channel === 'RED',
      },
      async () => {
        ({ process: upstream } = await sandbox.setCustomsChannel(upstream.numero, 'RED'));
      },
    );
  });

  it('refuses to move the ETA of a process that has arrived', async () => {
    const answer = await sandbox.send('POST', `/control/processes/${upstream.numero}/eta`, {
      eta: '2030-01-01',
    });

    expect(answer.status).toBe(409);
  });

  it('cancels it: CANCELLED everywhere, and no further move', async () => {
    await seenEverywhere(
      {
        change: (change) => change.kind === 'STATUS_CHANGED' && change.status === 'CANCELLED',
        listedBy: 'status=CANCELLED',
        item: (item) => item.status === 'CANCELLED',
        detail: (detail) => detail.status === 'CANCELLED',
      },
      async () => {
        ({ process: upstream } = await sandbox.cancel(upstream.numero));
      },
    );

    const again = await sandbox.send('POST', `/control/processes/${upstream.numero}/cancel`);
    const advanced = await sandbox.send('POST', `/control/processes/${upstream.numero}/advance`);
    expect([again.status, advanced.status]).toEqual([409, 409]);
  });

  it('delivered the process’s changes to the webhook in the order of the feed', async () => {
    const { changes } = await readFeed(api, token, startCursor);
    const fed = changes.filter((change) => change.numero === upstream.numero).map((change) => change.cursor);

    const ofProcess = () =>
      receiver.at(hookPath).filter((delivery) => delivery.payload.data.numero === upstream.numero);
    const delivered = await eventually('every change of the process at the webhook', BOUND_MS.webhook, () =>
      Promise.resolve(ofProcess().length >= fed.length ? ofProcess() : undefined),
    );

    expect(delivered.map((delivery) => delivery.id)).toEqual(fed);
  });
});
