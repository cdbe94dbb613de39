import { jest } from '@jest/globals';
import type { RequestActivity } from '../../common/http/request-activity.js';
import type { AppConfig } from '../../config/app.config.js';
import type { PrometheusDeliveryMetrics } from './delivery-metrics.js';
import { DeliveryRunner } from './delivery-runner.js';
import { DeliveryThread } from './thread/delivery-thread.js';
import type { WebhookDeliverer } from './webhook-deliverer.js';

describe(DeliveryRunner.name, () => {
  const deliverer = { start: jest.fn(async () => {}), stop: jest.fn(async () => {}) };
  const runnerFor = (delivery: 'thread' | 'in-process') =>
    new DeliveryRunner(
      { webhooks: { delivery } } as AppConfig,
      deliverer as unknown as WebhookDeliverer,
      { shared: new SharedArrayBuffer(8) } as unknown as RequestActivity,
      {} as PrometheusDeliveryMetrics,
    );

  afterEach(() => jest.restoreAllMocks());

  it('starts the delivery thread with the service, before any webhook exists', async () => {
    const start = jest.spyOn(DeliveryThread.prototype, 'start').mockImplementation(() => {});
    const stop = jest.spyOn(DeliveryThread.prototype, 'stop').mockResolvedValue();
    const sut = runnerFor('thread');

    await sut.onApplicationBootstrap();

    expect(start).toHaveBeenCalledTimes(1);
    await sut.beforeApplicationShutdown();
    expect(stop).toHaveBeenCalledTimes(1);
  });

  it('delivers on the service’s own thread when told to', async () => {
    const start = jest.spyOn(DeliveryThread.prototype, 'start').mockImplementation(() => {});
    const sut = runnerFor('in-process');

    await sut.onApplicationBootstrap();

    expect(start).not.toHaveBeenCalled();
    expect(deliverer.start).toHaveBeenCalledTimes(1);
  });
});
