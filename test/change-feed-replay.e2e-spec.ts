import type { ChangeDto } from '../src/changes/dto/change.response.dto.js';
import { Clock } from '../src/common/clock.js';
import { DAY_MS } from '../src/common/instant.js';
import type { ChangeKind } from '../src/domain/change-kinds.js';
import type {
  FollowUpEventDto,
  ProcessListResponseDto,
} from '../src/processes/dto/process-summary.response.dto.js';
import { FakeClock } from '../src/testing/fake-clock.js';
import { readWholeFeed } from './support/read-whole-feed.js';
import { startTestSandbox, type TestSandbox } from './support/sandbox.js';
import { syncNow } from './support/sync-now.js';
import { TestApp } from './support/test-app.js';
import { APP_TEST_DATABASE_TARGET } from '../src/testing/test-database.js';

/** What the feed's changes speak about, for one process, as the list shows it. */
interface ProcessState {
  status: string;
  updatedAt: string;
  customsChannel: string | null;
  eta: string | null;
  etaDelayDays: number | null;
  /** By event id. */
  follow: Record<string, FollowUpEventDto>;
}

type Snapshot = Map<string, ProcessState>;

const HOUR_MS = 3_600_000;
const MINUTE_MS = 60_000;
/**
 * The clock's steps between syncs: from a single position report (15 minutes) to several days, so
 * that some rounds see one thing happen to a process and others many, retractions included.
 */
const STEPS_MS = [
  15 * MINUTE_MS,
  2 * HOUR_MS,
  45 * MINUTE_MS,
  9 * HOUR_MS,
  DAY_MS,
  20 * MINUTE_MS,
  3 * DAY_MS,
  5 * HOUR_MS,
];
const ROUNDS = 16;
const PROCESS_COUNT = 300;
const LIST_PAGE_SIZE = 100;

describe.each([APP_TEST_DATABASE_TARGET])('The change feed as a history of the sandbox (%s)', (target) => {
  const clock = new FakeClock();
  let sandbox: TestSandbox;
  let testApp: TestApp;
  let staffToken: string;

  beforeAll(async () => {
    // The demo's data set (ships reporting positions every 15 minutes), smaller; the sandbox's
    // clock and the service's move together.
    sandbox = await startTestSandbox({ at: clock.now(), simulation: { processCount: PROCESS_COUNT } });
    testApp = await TestApp.start({
      target,
      env: sandbox.env,
      override: (builder) => builder.overrideProvider(Clock).useValue(clock),
    });
    await testApp.addUser({ username: 'operator', password: 'operator-pass-1', role: 'staff' });
    staffToken = await testApp.login('operator', 'operator-pass-1');
  });

  afterAll(async () => {
    await testApp.close();
    await sandbox.close();
  });

  const get = (url: string) => testApp.http.get(url).set('Authorization', `Bearer ${staffToken}`).expect(200);

  /** Every process as the list shows it to staff, page by page in a stable order. */
  const snapshot = async (): Promise<Snapshot> => {
    const processes: Snapshot = new Map();
    for (let page = 1; ; page += 1) {
      const body = (await get(`/api/processes?sort=numero&pageSize=${LIST_PAGE_SIZE}&page=${page}`))
        .body as ProcessListResponseDto;
      for (const process of body.data) {
        processes.set(process.numero, {
          status: process.status,
          updatedAt: process.updatedAt,
          customsChannel: process.summary.customsChannel,
          eta: process.summary.eta,
          etaDelayDays: process.summary.etaDelayDays,
          follow: Object.fromEntries(process.follow.map((event) => [event.id, event])),
        });
      }
      if (page >= body.meta.totalPages) return processes;
    }
  };

  /** Every change after `after` (from the start when null), following `next` to the end. */
  const readFeed = (after: string | null, limit: number) =>
    readWholeFeed(testApp, staffToken, { after, limit });

  it('holds, between any two syncs, exactly the changes that turn the API’s view before into the one after', async () => {
    const snapshots: Snapshot[] = [new Map()];
    /** The feed's end after each sync, where its round of changes ends. */
    const roundEnds: string[] = [];
    const followedLive: ChangeDto[] = [];
    let end: string | null = null;
    for (let round = 0; round < ROUNDS; round += 1) {
      if (round > 0) {
        const step = STEPS_MS[round % STEPS_MS.length] ?? DAY_MS;
        clock.advance(step);
        sandbox.clock.advance(step);
      }
      await syncNow(testApp);
      snapshots.push(await snapshot());
      const read = await readFeed(end, 500);
      followedLive.push(...read.changes);
      end = read.next;
      roundEnds.push(end);
    }

    // The replay a client starting late would do, in other page sizes than the live reader's.
    const { changes: replayed } = await readFeed(null, 97);
    expect(replayed).toEqual(followedLive);
    expect(new Set(replayed.map((change) => change.cursor)).size).toBe(replayed.length);

    const kindsSeen = new Set<ChangeKind>();
    const problems: string[] = [];
    let start = 0;
    roundEnds.forEach((roundEnd, round) => {
      const stop = replayed.findIndex((change) => change.cursor === roundEnd) + 1;
      const roundChanges = replayed.slice(start, stop);
      start = stop;
      const before = snapshots[round] ?? new Map<string, ProcessState>();
      const after = snapshots[round + 1] ?? new Map<string, ProcessState>();
      problems.push(
        ...replayRound(roundChanges, before, after).map((problem) => `round ${round}: ${problem}`),
      );
      if (round > 0) for (const change of roundChanges) kindsSeen.add(change.kind);
    });
    expect(problems).toEqual([]);
    expect(start).toBe(replayed.length);

    // Not vacuous: after the first load, the run saw processes open, move, gain and lose events
    // (the position reports among them) and get customs channels.
    const mainKinds: ChangeKind[] = [
      'PROCESS_ADDED',
      'STATUS_CHANGED',
      'FOLLOW_ADDED',
      'FOLLOW_REMOVED',
      'CUSTOMS_CHANGED',
      'ETA_CHANGED',
    ];
    expect(mainKinds.filter((kind) => !kindsSeen.has(kind))).toEqual([]);
    expect(snapshots[0]?.size).toBe(0);
    expect(snapshots.at(-1)?.size).toBeGreaterThan(snapshots[1]?.size ?? Infinity);
  }, 240_000);
});

/**
 * Applies one round's changes to the view before it, checking each against what it claims to
 * change; the result must be the view after, and exactly the processes that differ must have
 * changes. Returns what went wrong, if anything.
 */
function replayRound(changes: ChangeDto[], before: Snapshot, after: Snapshot): string[] {
  const problems: string[] = [];
  const replayed: Snapshot = new Map(
    [...before].map(([numero, state]) => [numero, { ...state, follow: { ...state.follow } }]),
  );
  const changed = new Set<string>();
  const seen = new Set<string>();
  for (const change of changes) {
    const problem = (what: string) =>
      problems.push(`${change.kind} ${change.numero} (${change.cursor}) ${what}`);
    const target = after.get(change.numero);
    // Every change carries the process's status and updatedAt as the sync left it.
    if (change.status !== target?.status || change.updatedAt !== target.updatedAt) {
      problem(
        `carries ${change.status} ${change.updatedAt}, the list shows ${target?.status} ${target?.updatedAt}`,
      );
    }
    const identity = `${change.numero} ${change.kind} ${change.follow?.id ?? ''}`;
    if (seen.has(identity)) problem('is there twice');
    seen.add(identity);
    changed.add(change.numero);

    const state = replayed.get(change.numero);
    if (change.kind === 'PROCESS_ADDED') {
      if (state !== undefined) problem('adds a process that was there');
      // A new process's events and channel come with it, not as changes of their own.
      replayed.set(change.numero, {
        status: change.status,
        updatedAt: change.updatedAt,
        customsChannel: target?.customsChannel ?? null,
        eta: target?.eta ?? null,
        etaDelayDays: target?.etaDelayDays ?? null,
        follow: { ...target?.follow },
      });
      continue;
    }
    if (state === undefined) {
      problem('changes a process never added');
      continue;
    }
    state.updatedAt = change.updatedAt;
    const { follow } = change;
    switch (change.kind) {
      case 'STATUS_CHANGED':
        if (change.previousStatus !== state.status)
          problem(`says it was ${change.previousStatus}, not ${state.status}`);
        state.status = change.status;
        break;
      case 'FOLLOW_REMOVED':
        if (follow === undefined || !sameJson(state.follow[follow.id], follow)) {
          problem(`removes ${JSON.stringify(follow)}, which was not there as such`);
        } else {
          delete state.follow[follow.id];
        }
        break;
      case 'FOLLOW_ADDED':
        if (follow === undefined || follow.id in state.follow) {
          problem(`adds ${JSON.stringify(follow)}, which was there already`);
        } else {
          state.follow[follow.id] = follow;
        }
        break;
      case 'CUSTOMS_CHANGED':
        if (change.customsChannel === undefined) problem('has no customsChannel');
        state.customsChannel = change.customsChannel ?? null;
        break;
      case 'ETA_CHANGED':
        if (change.previousEta !== state.eta)
          problem(`says the ETA was ${change.previousEta}, not ${state.eta}`);
        state.eta = change.eta ?? null;
        state.etaDelayDays = change.etaDelayDays ?? null;
        break;
      case 'PROCESS_UPDATED':
        break;
    }
  }

  for (const numero of new Set([...replayed.keys(), ...after.keys()])) {
    if (!sameJson(canonical(replayed.get(numero)), canonical(after.get(numero)))) {
      problems.push(
        `${numero} replays to ${JSON.stringify(canonical(replayed.get(numero)))}, the list shows ${JSON.stringify(canonical(after.get(numero)))}`,
      );
    }
    const differs = !sameJson(canonical(before.get(numero)), canonical(after.get(numero)));
    if (differs !== changed.has(numero)) {
      problems.push(
        `${numero} ${differs ? 'changed with no change recorded' : 'has changes but did not change'}`,
      );
    }
  }
  return problems;
}

/** Equality of JSON-shaped values whatever their key order (the list and the feed build them apart). */
function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(sortedKeys(a)) === JSON.stringify(sortedKeys(b));
}

function sortedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedKeys);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([key, member]) => [key, sortedKeys(member)]),
  );
}

/** A state with its events in id order, so that equal states serialize alike. */
function canonical(state: ProcessState | undefined): unknown {
  if (state === undefined) return null;
  const follow = Object.keys(state.follow)
    .sort()
    .map((id) => state.follow[id]);
  return { ...state, follow };
}
