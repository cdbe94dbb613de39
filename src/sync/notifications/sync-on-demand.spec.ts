import { jest } from '@jest/globals';
import type { SyncOutcome } from '../sync.types.js';
import type { SyncService } from '../sync.service.js';
import { FOLD_MS, SyncOnDemand } from './sync-on-demand.js';

/** A sync whose passes end when the test says so. */
class ManualSync {
  running = false;
  runs = 0;
  outcomes: Array<SyncOutcome['status']> = [];
  private finish: (() => void) | null = null;

  run(): Promise<SyncOutcome> {
    this.runs += 1;
    this.running = true;
    const status = this.outcomes.shift() ?? 'succeeded';
    return new Promise((resolve) => {
      this.finish = () => {
        this.running = false;
        resolve({ status } as SyncOutcome);
      };
    });
  }

  endPass(): void {
    this.finish?.();
    this.finish = null;
  }
}

describe(SyncOnDemand.name, () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  const settle = async (ms: number) => {
    await jest.advanceTimersByTimeAsync(ms);
  };

  it('folds requests arriving together into one pass, started within the fold', async () => {
    const sync = new ManualSync();
    const sut = new SyncOnDemand(sync as unknown as SyncService);
    sut.request();
    sut.request();
    await settle(FOLD_MS - 1);
    expect(sync.runs).toBe(0);
    sut.request();
    await settle(1);
    expect(sync.runs).toBe(1);
  });

  it('runs once more after a pass for requests that arrived during it', async () => {
    const sync = new ManualSync();
    const sut = new SyncOnDemand(sync as unknown as SyncService);
    sut.request();
    await settle(FOLD_MS);
    sut.request();
    sut.request();
    sync.endPass();
    await settle(FOLD_MS);
    expect(sync.runs).toBe(2);
    sync.endPass();
    await settle(10 * FOLD_MS);
    expect(sync.runs).toBe(2);
  });

  it('asks again while another instance holds the sync', async () => {
    const sync = new ManualSync();
    sync.outcomes = ['skipped', 'skipped', 'succeeded'];
    const sut = new SyncOnDemand(sync as unknown as SyncService);
    sut.request();
    await settle(FOLD_MS);
    for (let pass = 0; pass < 3; pass++) {
      sync.endPass();
      await settle(500);
    }
    expect(sync.runs).toBe(3);
  });

  it('starts nothing once the application shuts down', async () => {
    const sync = new ManualSync();
    const sut = new SyncOnDemand(sync as unknown as SyncService);
    sut.request();
    sut.beforeApplicationShutdown();
    await settle(10 * FOLD_MS);
    expect(sync.runs).toBe(0);
  });
});
