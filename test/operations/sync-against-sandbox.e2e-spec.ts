import { HttpService } from '@nestjs/axios';
import { Logger } from '@nestjs/common';
import axios from 'axios';
import { sql } from 'drizzle-orm';
import type { OperationsSimulator } from '../../sandbox/src/simulation/operations-simulator.js';
import { ChangeRecorder } from '../../src/changes/change-recorder.js';
import { DAY_MS } from '../../src/common/instant.js';
import { loadAppConfig } from '../../src/config/app.config.js';
import type { DatabaseService } from '../../src/database/database.service.js';
import { rowsOf } from '../../src/database/sql-rows.js';
import { createOperationsGateway } from '../../src/operations/operations.module.js';
import { ProcessPageWriter } from '../../src/sync/process-page.writer.js';
import { SyncLock } from '../../src/sync/sync-lock.js';
import { SyncStateRepository } from '../../src/sync/sync-state.repository.js';
import { SyncService } from '../../src/sync/sync.service.js';
import { FakeClock } from '../../src/testing/fake-clock.js';
import { staleListItems } from '../../src/testing/stale-list-items.js';
import { connectTestDatabase, APP_TEST_DATABASE_TARGET } from '../../src/testing/test-database.js';
import { startTestSandbox, type TestSandbox } from '../support/sandbox.js';

describe.each([APP_TEST_DATABASE_TARGET])(`${SyncService.name} against the sandbox on %s`, (target) => {
  let database: DatabaseService;
  let dispose: () => Promise<void>;

  beforeAll(async () => {
    Logger.overrideLogger(false);
    ({ database, dispose } = await connectTestDatabase(target));
  });
  let sandbox: TestSandbox | undefined;
  afterAll(async () => {
    await sandbox?.close();
    await dispose();
  });

  /** What the database holds, in the sandbox's terms. */
  async function storedView() {
    const processes = await rowsOf<{
      numero: string;
      updated_at: string;
      follow_count: number;
      status: string;
    }>(
      database.db,
      sql`SELECT numero, status, follow_count,
                 to_char(updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS updated_at
            FROM processes ORDER BY numero`,
    );
    const events = await rowsOf<{ key: string }>(
      database.db,
      sql`SELECT process_numero || '/' || id AS key FROM follow_up_events ORDER BY 1`,
    );
    const containers = await rowsOf<{ key: string }>(
      database.db,
      sql`SELECT process_numero || '/' || position || '/' || container_number AS key FROM process_containers ORDER BY 1`,
    );
    return { processes, events: events.map((row) => row.key), containers: containers.map((row) => row.key) };
  }

  function upstreamView(simulator: OperationsSimulator, now: Date) {
    const all = [...simulator.processesAt(now)].sort((a, b) => (a.numero < b.numero ? -1 : 1));
    return {
      processes: all.map((process) => ({
        numero: process.numero,
        status: process.status,
        follow_count: process.events.length,
        updated_at: new Date(process.updatedAt).toISOString(),
      })),
      events: all.flatMap((process) => process.events.map((event) => `${process.numero}/${event.id}`)).sort(),
      containers: all
        .flatMap((process) =>
          process.containers.map((number, position) => `${process.numero}/${position}/${number}`),
        )
        .sort(),
    };
  }

  it('mirrors the sandbox as its clock moves: new processes and events in, retracted events out', async () => {
    // The sandbox's clock and the sync's move together, as in the demo.
    const clock = new FakeClock(new Date('2026-03-14T12:00:00Z'));
    // Opening over 30 days, 20 of them past: many processes are under way, some yet to open.
    sandbox = await startTestSandbox({
      at: clock.now(),
      simulation: {
        seed: 7,
        processCount: 300,
        customerCount: 4,
        epoch: new Date(clock.now().getTime() - 20 * DAY_MS),
        openWindowDays: 30,
      },
    });
    const simulator = sandbox.server.sandbox.simulation;
    const config = loadAppConfig({ NODE_ENV: 'test', ...sandbox.env });
    const sut = new SyncService(
      database,
      createOperationsGateway({ config, http: new HttpService(axios.create()) }),
      SyncLock.for(database, null),
      clock,
      new SyncStateRepository(database),
      new ProcessPageWriter(new ChangeRecorder()),
      { pageSize: 100 },
    );

    await sut.run();
    let before = upstreamView(simulator, clock.now());
    const initialCount = before.processes.length;
    expect(await storedView()).toEqual(before);

    let retracted = 0;
    for (const step of Array<number>(8).fill(DAY_MS / 2)) {
      clock.advance(step);
      sandbox.clock.advance(step);
      const after = upstreamView(simulator, clock.now());
      const previous = new Map(before.processes.map((process) => [process.numero, process.updated_at]));
      const changed = after.processes.filter(
        (process) => previous.get(process.numero) !== process.updated_at,
      );
      retracted += before.events.filter((key) => !after.events.includes(key)).length;

      const outcome = await sut.run();

      expect(outcome).toMatchObject({ status: 'succeeded', processed: changed.length, rejected: 0 });
      // Only changed processes come back, plus the few inside the overlap window.
      expect(outcome.fetched - changed.length).toBeLessThanOrEqual(5);
      expect(await storedView()).toEqual(after);
      expect(await staleListItems(database)).toEqual([]);
      before = after;
    }
    expect(retracted).toBeGreaterThan(0);
    expect(before.processes.length).toBeGreaterThan(initialCount);
  });
});
