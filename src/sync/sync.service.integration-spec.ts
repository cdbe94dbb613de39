import { ChangeRecorder } from '../changes/change-recorder.js';
import { jest } from '@jest/globals';
import { Logger } from '@nestjs/common';
import { sql } from 'drizzle-orm';
import { connectTestDatabase, TEST_DATABASE_TARGETS } from '../testing/test-database.js';
import { anEvent, anOperationsProcess } from '../testing/operations-process.factory.js';
import { FakeOperationsGateway } from '../testing/fake-operations.gateway.js';
import { SystemClock } from '../common/clock.js';
import { DatabaseService, type DatabaseOptions } from '../database/database.service.js';
import { OperationsGateway } from '../operations/operations.gateway.js';
import type { ChangedProcessesPage, OperationsProcess } from '../operations/operations.types.js';
import { rowsOf } from '../database/sql-rows.js';
import { ProcessPageWriter } from './process-page.writer.js';
import { SyncStateRepository } from './sync-state.repository.js';
import { SyncLock } from './sync-lock.js';
import { SKIPPED_ANOTHER_RUNNING, SyncService } from './sync.service.js';
import { staleListItems } from '../testing/stale-list-items.js';

const HOUR = 3_600_000;
const T0 = Date.parse('2026-03-01T00:00:00.000Z');
const at = (ms: number) => new Date(ms).toISOString();

/** `count` processes for three customers, one change a minute from T0. */
function upstreamProcesses(count: number): OperationsProcess[] {
  const customers = [
    { id: 'acme', name: 'ACME Importadora Ltda' },
    { id: 'globex', name: 'Globex Comércio S.A.' },
    { id: 'initech', name: 'Initech Logística' },
  ];
  return Array.from({ length: count }, (_, index) => {
    const numero = `IMP-2026-${String(index + 1).padStart(6, '0')}`;
    return anOperationsProcess({
      numero,
      updatedAt: at(T0 + index * 60_000),
      customer: customers[index % 3]!,
      containers: index % 4 === 0 ? [] : ['MSCU1234565', 'TGHU7654320'].slice(0, (index % 2) + 1),
      events: Array.from({ length: (index % 5) + 1 }, (_, e) =>
        anEvent({
          id: `${numero}-e${e}`,
          occurredAt: at(T0 - (10 - e) * HOUR),
          location: e % 2 === 0 ? { code: 'CNSHA', name: 'Shanghai' } : null,
        }),
      ),
    });
  });
}

describe.each(TEST_DATABASE_TARGETS)(`${SyncService.name} on %s`, (target) => {
  let database: DatabaseService;
  let options: DatabaseOptions;
  let dispose: () => Promise<void>;
  let upstream: FakeOperationsGateway;

  const newSync = (gateway: OperationsGateway = upstream, db: DatabaseService = database) =>
    new SyncService(
      db,
      gateway,
      SyncLock.for(db, options.url),
      new SystemClock(),
      new SyncStateRepository(db),
      new ProcessPageWriter(new ChangeRecorder()),
      { pageSize: 10 },
    );

  beforeAll(async () => {
    Logger.overrideLogger(false);
    ({ database, options, dispose } = await connectTestDatabase(target));
  });
  afterAll(() => dispose());
  beforeEach(async () => {
    await database.db.execute(sql`TRUNCATE processes, customers, sync_state CASCADE`);
    upstream = new FakeOperationsGateway().putAll(...upstreamProcesses(25));
  });
  afterEach(() => jest.restoreAllMocks());

  async function counts() {
    const [row] = await rowsOf<Record<string, number>>(
      database.db,
      sql`SELECT (SELECT count(*)::int FROM processes) AS processes,
                 (SELECT count(*)::int FROM follow_up_events) AS events,
                 (SELECT count(*)::int FROM process_containers) AS containers,
                 (SELECT count(*)::int FROM customers) AS customers,
                 (SELECT count(*)::int FROM process_list_items) AS "listItems"`,
    );
    return row;
  }

  function expectedCounts(processes: OperationsProcess[]) {
    return {
      processes: processes.length,
      events: processes.reduce((sum, process) => sum + process.events.length, 0),
      containers: processes.reduce((sum, process) => sum + process.containers.length, 0),
      customers: new Set(processes.map((process) => process.customer.id)).size,
      listItems: processes.length,
    };
  }

  /** Every row with its physical version (xmin): equal snapshots mean nothing was even rewritten. */
  async function snapshot() {
    return {
      customers: await rowsOf(database.db, sql`SELECT xmin::text, * FROM customers ORDER BY id`),
      processes: await rowsOf(database.db, sql`SELECT xmin::text, * FROM processes ORDER BY numero`),
      containers: await rowsOf(
        database.db,
        sql`SELECT xmin::text, * FROM process_containers ORDER BY process_numero, container_number`,
      ),
      events: await rowsOf(
        database.db,
        sql`SELECT xmin::text, * FROM follow_up_events ORDER BY process_numero, id`,
      ),
      listItems: await rowsOf(database.db, sql`SELECT xmin::text, * FROM process_list_items ORDER BY numero`),
    };
  }

  async function listedCustomerNames(customerId: string): Promise<string[]> {
    const rows = await rowsOf<{ name: string }>(
      database.db,
      sql`SELECT DISTINCT i.body::json -> 'summary' -> 'customer' ->> 'name' AS name
            FROM process_list_items i JOIN processes p ON p.numero = i.numero
           WHERE p.customer_id = ${customerId}`,
    );
    return rows.map((row) => row.name);
  }

  async function stored(numero: string) {
    const [process] = await rowsOf<Record<string, unknown>>(
      database.db,
      sql`SELECT status, follow_count, to_char(updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS updated_at
            FROM processes WHERE numero = ${numero}`,
    );
    const events = await rowsOf<{ id: string }>(
      database.db,
      sql`SELECT id FROM follow_up_events WHERE process_numero = ${numero} ORDER BY id`,
    );
    const containers = await rowsOf<{ container_number: string }>(
      database.db,
      sql`SELECT container_number FROM process_containers WHERE process_numero = ${numero} ORDER BY position`,
    );
    return {
      ...process,
      events: events.map((row) => row.id),
      containers: containers.map((row) => row.container_number),
    };
  }

  it('pulls everything on the first pass, page by page', async () => {
    const log = jest.spyOn(Logger.prototype, 'log');
    const sut = newSync();

    const outcome = await sut.run();

    expect(outcome).toMatchObject({ status: 'succeeded', pages: 3, fetched: 25, processed: 25, skipped: 0 });
    expect(log).toHaveBeenCalledTimes(1);
    expect(log).toHaveBeenCalledWith(
      expect.objectContaining({
        msg: 'sync run',
        status: 'succeeded',
        processed: 25,
        pages: 3,
        lagSeconds: 0,
      }),
    );
    expect(await counts()).toEqual(expectedCounts(upstream.all()));
    expect(upstream.queries[0]).toEqual({ updatedSince: null, cursor: null, limit: 10 });
    const sample = upstream.all()[6]!;
    expect(await stored(sample.numero)).toEqual({
      status: sample.status,
      follow_count: sample.events.length,
      updated_at: sample.updatedAt,
      events: sample.events.map((event) => event.id).sort(),
      containers: sample.containers,
    });
    const status = await sut.getStatus();
    expect(status).toMatchObject({
      watermark: upstream.all()[24]!.updatedAt,
      lastError: null,
      lastProcessedCount: 25,
      passInProgress: false,
      running: false,
    });
    expect(status.lagSeconds).toBeLessThanOrEqual(1);
    expect(sut.getLastOutcome()).toBe(outcome);
  });

  it('changes nothing when run again without upstream changes', async () => {
    const sut = newSync();
    await sut.run();
    const before = await snapshot();

    const outcome = await sut.run();

    expect(outcome).toMatchObject({ status: 'succeeded', processed: 0 });
    expect(await snapshot()).toEqual(before);
  });

  it('pulls only what changed since the watermark: new events, retracted events, new processes', async () => {
    const sut = newSync();
    await sut.run();
    const [first, second] = upstream.all();
    const later = at(T0 + 2 * HOUR);
    upstream.putAll(
      {
        ...first!,
        status: 'ARRIVED',
        updatedAt: later,
        events: [...first!.events, anEvent({ id: 'evt-new', code: 'ARRIVED', occurredAt: later })],
      },
      { ...second!, updatedAt: later, events: second!.events.slice(1), containers: ['TGHU7654320'] },
      anOperationsProcess({ numero: 'EXP-2026-000001', type: 'EXPORT', updatedAt: later }),
    );
    upstream.queries.length = 0;

    const outcome = await sut.run();

    expect(upstream.queries[0]?.updatedSince).toBe(at(T0 + 24 * 60_000 - 60_000));
    // The last process of the first pass comes again (overlap window) and is left untouched.
    expect(outcome).toMatchObject({ status: 'succeeded', fetched: 4, processed: 3, skipped: 1 });
    expect(await counts()).toEqual(expectedCounts(upstream.all()));
    expect(await staleListItems(database)).toEqual([]);
    expect(await stored(first!.numero)).toMatchObject({
      status: 'ARRIVED',
      follow_count: first!.events.length + 1,
      events: expect.arrayContaining(['evt-new']),
    });
    expect(await stored(second!.numero)).toMatchObject({
      events: second!.events.slice(1).map((event) => event.id),
      containers: ['TGHU7654320'],
    });
    expect((await sut.getStatus()).watermark).toBe(later);
  });

  it('renders again the list item of every process of a customer whose name changed, written or not', async () => {
    const sut = newSync();
    await sut.run();
    const renamed = upstream.all().find((process) => process.customer.id === 'globex')!;
    upstream.putAll({
      ...renamed,
      customer: { id: 'globex', name: 'Globex Holding "Brasil"' },
      updatedAt: at(T0 + 2 * HOUR),
    });

    const outcome = await sut.run();

    expect(outcome).toMatchObject({ status: 'succeeded', processed: 1 });
    expect(await listedCustomerNames('globex')).toEqual(['Globex Holding "Brasil"']);
    expect(await listedCustomerNames('acme')).toEqual(['ACME Importadora Ltda']);
    expect(await staleListItems(database)).toEqual([]);
  });

  it('loses and duplicates nothing when upstream fails mid-pass, and the next run resumes', async () => {
    upstream.failOnCalls.add(2);
    const sut = newSync();

    const failed = await sut.run();

    expect(failed).toMatchObject({ status: 'failed', pages: 1, processed: 10 });
    expect(failed.detail).toContain('simulated outage');
    expect(await counts()).toMatchObject({ processes: 10 });
    expect(await sut.getStatus()).toMatchObject({
      watermark: null,
      lastError: expect.stringContaining('simulated outage'),
      passInProgress: true,
    });

    const resumed = await sut.run();

    expect(resumed).toMatchObject({ status: 'succeeded', pages: 2, processed: 15 });
    expect(upstream.queries[2]?.cursor).toBe(upstream.queries[1]?.cursor);
    expect(await counts()).toEqual(expectedCounts(upstream.all()));
    expect(await sut.getStatus()).toMatchObject({ lastError: null, passInProgress: false });
  });

  it('rolls back a page whose transaction fails in the database, and the next run completes', async () => {
    const write = ProcessPageWriter.prototype.write;
    let calls = 0;
    jest.spyOn(ProcessPageWriter.prototype, 'write').mockImplementation(async function (
      this: ProcessPageWriter,
      tx,
      processes,
    ) {
      const result = await write.call(this, tx, processes);
      calls += 1;
      if (calls === 2) throw new Error('connection lost after writing');
      return result;
    });
    const sut = newSync();

    expect(await sut.run()).toMatchObject({
      status: 'failed',
      processed: 10,
      detail: 'Error: connection lost after writing',
    });
    expect(await counts()).toMatchObject({ processes: 10 });

    expect(await sut.run()).toMatchObject({ status: 'succeeded', processed: 15 });
    expect(await counts()).toEqual(expectedCounts(upstream.all()));
  });

  it('picks up a process that changes during the pass', async () => {
    const first = upstream.all()[0]!;
    upstream.beforePage = (call) => {
      if (call === 2) upstream.put({ ...first, status: 'CANCELLED', updatedAt: at(T0 + HOUR) });
    };
    const sut = newSync();

    expect(await sut.run()).toMatchObject({ status: 'succeeded', pages: 3, fetched: 26 });

    expect(await stored(first.numero)).toMatchObject({ status: 'CANCELLED' });
    expect((await sut.getStatus()).watermark).toBe(at(T0 + HOUR));
  });

  it('runs one sync at a time: a concurrent one skips, a second call in the same process joins', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let asked!: () => void;
    /** The first run holds the lock once it asks upstream. */
    const holdingTheLock = new Promise<void>((resolve) => (asked = resolve));
    const slow = new (class extends FakeOperationsGateway {
      override async listChangedProcesses(
        query: Parameters<FakeOperationsGateway['listChangedProcesses']>[0],
      ) {
        asked();
        await gate;
        return super.listChangedProcesses(query);
      }
    })().putAll(...upstream.all());
    // A second instance, on its own connection where there can be one.
    const other = target === 'postgres' ? await DatabaseService.connect(options) : database;
    try {
      const sut = newSync(slow);
      const rival = newSync(upstream, other);

      const running = sut.run();
      const joined = sut.run();
      await holdingTheLock;
      const skipped = await rival.run();
      release();

      expect(skipped).toMatchObject({ status: 'skipped', detail: SKIPPED_ANOTHER_RUNNING, pages: 0 });
      expect(upstream.queries).toHaveLength(0);
      expect(await running).toMatchObject({ status: 'succeeded', processed: 25 });
      expect(await joined).toBe(await running);
      expect(await rival.run()).toMatchObject({ status: 'succeeded', processed: 0 });
    } finally {
      if (other !== database) await other.close();
    }
  });

  it('refuses an item with an unknown status and one the database rejects, and keeps the rest', async () => {
    await newSync().run();
    const later = at(T0 + HOUR);
    upstream.putAll(
      anOperationsProcess({ numero: 'IMP-2026-900001', status: 'LOST' as never, updatedAt: later }),
      // Valid in itself, but clashes with IMP-2026-000001 on the case-insensitive unique numero.
      anOperationsProcess({ numero: 'imp-2026-000001', updatedAt: later }),
      anOperationsProcess({ numero: 'IMP-2026-900002', updatedAt: later }),
    );

    const outcome = await newSync().run();

    expect(outcome).toMatchObject({ status: 'succeeded', fetched: 4, processed: 1, skipped: 1, rejected: 2 });
    expect(await counts()).toMatchObject({ processes: 26 });
    expect(await stored('IMP-2026-900002')).toMatchObject({ status: 'IN_TRANSIT' });
  });

  it('never lets an older copy overwrite a newer one', async () => {
    await newSync().run();
    const current = upstream.all()[3]!;
    const stale: OperationsProcess = { ...current, status: 'OPEN', updatedAt: at(T0 - HOUR), events: [] };
    const replaying = new (class extends FakeOperationsGateway {
      override listChangedProcesses(): Promise<ChangedProcessesPage> {
        return Promise.resolve({ items: [stale], nextCursor: null });
      }
    })();
    const before = await snapshot();

    expect(await newSync(replaying).run()).toMatchObject({ status: 'succeeded', processed: 0, skipped: 1 });

    expect(await snapshot()).toEqual(before);
  });

  it('stops between pages when asked and resumes from there', async () => {
    const sut = newSync();
    upstream.beforePage = (call) => {
      if (call === 2) void sut.stop();
    };

    expect(await sut.run()).toMatchObject({ status: 'interrupted', pages: 2 });
    expect(await sut.getStatus()).toMatchObject({ passInProgress: true, watermark: null });

    const next = newSync();
    expect(await next.run()).toMatchObject({ status: 'succeeded', pages: 1, processed: 5 });
    expect(await counts()).toEqual(expectedCounts(upstream.all()));
  });
});
