import { Registry } from 'prom-client';
import { PrometheusDeliveryMetrics } from './delivery-metrics.js';

describe('PrometheusDeliveryMetrics', () => {
  it('counts attempts made here and those a delivery thread reports alike', async () => {
    const registry = new Registry();
    const metrics = new PrometheusDeliveryMetrics(registry);

    metrics.attempted('success');
    metrics.delivered(10_000, 10_300);
    metrics.add({ attempts: { success: 2, timeout: 1 }, lagsSeconds: [0.2, 4] });

    const text = await registry.metrics();
    expect(text).toMatch(/^webhook_deliveries_total\{outcome="success"\} 3$/m);
    expect(text).toMatch(/^webhook_deliveries_total\{outcome="timeout"\} 1$/m);
    expect(text).toMatch(/^webhook_delivery_lag_seconds_count 3$/m);
    expect(text).toMatch(/^webhook_delivery_lag_seconds_bucket\{le="0.5"\} 2$/m);
    // A success a clock behind the recording counts as no lag, not a negative one.
    metrics.delivered(10_000, 9_000);
    expect(await registry.metrics()).toMatch(/^webhook_delivery_lag_seconds_bucket\{le="0.1"\} 1$/m);
  });
});
