import { jest } from '@jest/globals';
import type { AppConfig } from '../../../config/app.config.js';
import type { DeliveryTally } from '../delivery-metrics.js';
import { DeliveryThread } from './delivery-thread.js';

/** A stand-in for the delivery thread's code: an ES module run as the worker thread. */
const standIn = (source: string): URL => new URL(`data:text/javascript,${encodeURIComponent(source)}`);

const REPORT_ONE_SUCCESS = `parentPort.postMessage({ tally: { attempts: { success: 1 }, lagsSeconds: [0.25] } });`;

describe('DeliveryThread', () => {
  const data = { config: {} as AppConfig, activity: new SharedArrayBuffer(16) };
  let tallies: DeliveryTally[];
  let logger: { error: jest.Mock; log: jest.Mock; warn: jest.Mock };
  let thread: DeliveryThread | null;

  beforeEach(() => {
    tallies = [];
    logger = { error: jest.fn(), log: jest.fn(), warn: jest.fn() };
    thread = null;
  });
  afterEach(async () => thread?.stop());

  function startThread(source: string, options: { restartAfterMs?: number; stopGraceMs?: number } = {}) {
    thread = new DeliveryThread(data, { add: (tally) => tallies.push(tally) }, logger, {
      restartAfterMs: 10,
      stopGraceMs: 5000,
      ...options,
      code: standIn(source),
    });
    thread.start();
    return thread;
  }

  async function until(condition: () => boolean): Promise<void> {
    while (!condition()) await new Promise((resolve) => setTimeout(resolve, 10));
  }

  it('adds the attempts the thread reports to the service’s metrics', async () => {
    startThread(`import { parentPort } from 'node:worker_threads';
      ${REPORT_ONE_SUCCESS}
      parentPort.once('message', () => process.exit());`);
    await until(() => tallies.length === 1);
    expect(tallies).toEqual([{ attempts: { success: 1 }, lagsSeconds: [0.25] }]);
  });

  it('starts another thread when one ends by itself, and says so', async () => {
    startThread(`import { parentPort } from 'node:worker_threads';
      ${REPORT_ONE_SUCCESS}
      process.exit(3);`);
    await until(() => tallies.length >= 3);
    expect(logger.error).toHaveBeenCalledWith(
      expect.objectContaining({
        msg: expect.stringContaining('ended; another starts') as string,
        exitCode: 3,
      }),
    );
  });

  it('tells the thread to stop at shutdown, waits for it to end, and starts no other', async () => {
    const started = startThread(`import { parentPort } from 'node:worker_threads';
      parentPort.once('message', (message) => {
        parentPort.postMessage({ tally: { attempts: { [message]: 1 }, lagsSeconds: [] } });
        setTimeout(() => process.exit(), 50);
      });`);
    await new Promise((resolve) => setTimeout(resolve, 200));
    await started.stop();
    expect(tallies).toEqual([{ attempts: { stop: 1 }, lagsSeconds: [] }]);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(logger.error).not.toHaveBeenCalled();
  });

  it('terminates a thread still running its grace after being told to stop', async () => {
    const started = startThread(`setInterval(() => {}, 1000);`, { stopGraceMs: 100 });
    await new Promise((resolve) => setTimeout(resolve, 200));
    // Resolves: the thread, which would never end by itself, was ended.
    await started.stop();
    expect(logger.error).not.toHaveBeenCalled();
  });

  it('starts nothing once stopped', async () => {
    const stopped = startThread(`import { parentPort } from 'node:worker_threads';
      ${REPORT_ONE_SUCCESS}
      parentPort.once('message', () => process.exit());`);
    await until(() => tallies.length === 1);
    await stopped.stop();
    stopped.start();
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(tallies).toHaveLength(1);
  });
});
