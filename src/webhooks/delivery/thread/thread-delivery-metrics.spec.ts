import { jest } from '@jest/globals';
import type { TallyMessage } from './delivery-thread-protocol.js';
import { REPORT_EVERY_MS, ThreadDeliveryMetrics } from './thread-delivery-metrics.js';

describe('ThreadDeliveryMetrics', () => {
  let sent: TallyMessage[];
  let metrics: ThreadDeliveryMetrics;

  beforeEach(() => {
    jest.useFakeTimers();
    sent = [];
    metrics = new ThreadDeliveryMetrics({ postMessage: (message: TallyMessage) => sent.push(message) });
  });
  afterEach(() => jest.useRealTimers());

  it('reports the attempts of each REPORT_EVERY_MS in one message', () => {
    metrics.attempted('success');
    metrics.delivered(1_000, 1_500);
    metrics.attempted('success');
    metrics.delivered(1_000, 3_000);
    metrics.attempted('timeout');
    jest.advanceTimersByTime(REPORT_EVERY_MS - 1);
    expect(sent).toEqual([]);

    jest.advanceTimersByTime(1);
    expect(sent).toEqual([{ tally: { attempts: { success: 2, timeout: 1 }, lagsSeconds: [0.5, 2] } }]);

    metrics.attempted('http-error');
    jest.advanceTimersByTime(REPORT_EVERY_MS);
    expect(sent[1]).toEqual({ tally: { attempts: { 'http-error': 1 }, lagsSeconds: [] } });
  });

  it('sends nothing while nothing is attempted', () => {
    jest.advanceTimersByTime(10 * REPORT_EVERY_MS);
    metrics.onApplicationShutdown();
    expect(sent).toEqual([]);
  });

  it('reports what is left at shutdown at once', () => {
    metrics.attempted('network-error');
    metrics.onApplicationShutdown();
    expect(sent).toEqual([{ tally: { attempts: { 'network-error': 1 }, lagsSeconds: [] } }]);
    jest.advanceTimersByTime(REPORT_EVERY_MS);
    expect(sent).toHaveLength(1);
  });
});
