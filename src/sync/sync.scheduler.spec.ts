import { jest } from '@jest/globals';
import { Logger } from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import type { AppConfig } from '../config/app.config.js';
import { SYNC_TIMEOUT_NAME, SyncScheduler } from './sync.scheduler.js';
import type { SyncService } from './sync.service.js';
import type { SyncOutcome } from './sync.types.js';

describe(SyncScheduler.name, () => {
  let registry: SchedulerRegistry;
  let runs: number;
  let lastOutcome: SyncOutcome | null;
  const sync = {
    run: () => {
      runs += 1;
      lastOutcome = { finishedAt: new Date().toISOString() } as SyncOutcome;
      return Promise.resolve(lastOutcome);
    },
    getLastOutcome: () => lastOutcome,
  } as unknown as SyncService;
  const schedulerWith = (intervalSeconds: number) =>
    new SyncScheduler(sync, { sync: { intervalSeconds } } as AppConfig, registry);

  beforeAll(() => {
    Logger.overrideLogger(false);
  });
  beforeEach(() => {
    jest.useFakeTimers();
    registry = new SchedulerRegistry();
    runs = 0;
    lastOutcome = null;
  });
  afterEach(() => jest.useRealTimers());

  it('runs at start-up, then once per interval after each run ends', async () => {
    const sut = schedulerWith(60);

    sut.onApplicationBootstrap();
    await jest.advanceTimersByTimeAsync(0);
    expect(runs).toBe(1);
    await jest.advanceTimersByTimeAsync(59_000);
    expect(runs).toBe(1);
    await jest.advanceTimersByTimeAsync(1_000);
    expect(runs).toBe(2);
    expect(registry.doesExist('timeout', SYNC_TIMEOUT_NAME)).toBe(true);
  });

  it('counts a pass that just ended elsewhere (demo seeding) towards the interval', async () => {
    await sync.run();
    const sut = schedulerWith(60);

    sut.onApplicationBootstrap();
    await jest.advanceTimersByTimeAsync(30_000);
    expect(runs).toBe(1);
    await jest.advanceTimersByTimeAsync(30_000);
    expect(runs).toBe(2);
  });

  it('schedules nothing when SYNC_INTERVAL_S is 0', async () => {
    schedulerWith(0).onApplicationBootstrap();

    await jest.advanceTimersByTimeAsync(3_600_000);
    expect(runs).toBe(0);
    expect(registry.getTimeouts()).toEqual([]);
  });

  it('stops scheduling on shutdown', async () => {
    const sut = schedulerWith(60);
    sut.onApplicationBootstrap();
    await jest.advanceTimersByTimeAsync(0);

    sut.beforeApplicationShutdown();
    await jest.advanceTimersByTimeAsync(600_000);

    expect(runs).toBe(1);
    expect(registry.doesExist('timeout', SYNC_TIMEOUT_NAME)).toBe(false);
  });
});
