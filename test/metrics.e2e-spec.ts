import type { AddressInfo } from 'node:net';
import { Clock } from '../src/common/clock.js';
import { RateLimitMetrics } from '../src/rate-limit/rate-limit.metrics.js';
import { OperationsGateway } from '../src/operations/operations.gateway.js';
import { anOperationsDetail, anOperationsProcess } from '../src/testing/operations-process.factory.js';
import { FakeClock } from '../src/testing/fake-clock.js';
import { FakeOperationsGateway } from '../src/testing/fake-operations.gateway.js';
import { SseClient } from './support/sse-client.js';
import { syncNow } from './support/sync-now.js';
import { TestApp } from './support/test-app.js';
import { waitUntil } from './support/wait-until.js';

const CACHE_TTL_S = 60;
const NUMERO = 'IMP-2026-000321';

describe('GET /metrics', () => {
  const process = anOperationsProcess({ numero: NUMERO });
  const gateway = new FakeOperationsGateway().put(process, anOperationsDetail(process));
  const clock = new FakeClock();
  let testApp: TestApp;
  let token: string;

  beforeAll(async () => {
    testApp = await TestApp.start({
      env: { OPERATIONS_CACHE_TTL_S: String(CACHE_TTL_S) },
      override: (builder) =>
        builder.overrideProvider(OperationsGateway).useValue(gateway).overrideProvider(Clock).useValue(clock),
    });
    await syncNow(testApp);
    await testApp.addUser({ username: 'acme', password: 'acme-pass-1', customerIds: [process.customer.id] });
    token = await testApp.login('acme', 'acme-pass-1');
  });

  afterAll(() => testApp.close());

  const scrape = async () => {
    const response = await testApp.http.get('/metrics').expect(200);
    return response.text;
  };

  /** The value of one series, or undefined when absent. */
  const value = (text: string, series: string): number | undefined => {
    const line = text.split('\n').find((candidate) => candidate.startsWith(`${series} `));
    return line === undefined ? undefined : Number(line.slice(series.length + 1));
  };

  const detail = () => testApp.http.get(`/api/processes/${NUMERO}`).set('Authorization', `Bearer ${token}`);

  it('answers Prometheus text without a token, with the default process metrics', async () => {
    const response = await testApp.http.get('/metrics').expect(200);
    expect(response.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8');
    expect(response.headers['cache-control']).toBe('no-store');
    for (const name of [
      'http_request_duration_seconds histogram',
      'enrichment_cache_hits_total counter',
      'sync_lag_seconds gauge',
      'rate_limit_rejections_total counter',
      'process_resident_memory_bytes gauge',
      'nodejs_eventloop_lag_seconds gauge',
      'process_cpu_seconds_total counter',
    ]) {
      expect(response.text).toContain(`# TYPE ${name}`);
    }
  });

  it('labels request durations with the route pattern, never the URL', async () => {
    await detail().expect(200);
    await testApp.http.get('/no/such/route-x9').expect(404);
    const text = await scrape();
    expect(
      value(
        text,
        'http_request_duration_seconds_count{method="GET",route="/api/processes/:numero",status="200"}',
      ),
    ).toBeGreaterThanOrEqual(1);
    expect(
      value(text, 'http_request_duration_seconds_count{method="GET",route="<unmatched>",status="404"}'),
    ).toBeGreaterThanOrEqual(1);
    expect(
      value(text, 'http_request_duration_seconds_count{method="POST",route="/api/auth/login",status="200"}'),
    ).toBeGreaterThanOrEqual(1);
    expect(text).not.toContain(NUMERO);
    expect(text).not.toContain('route-x9');
  });

  it('counts enrichment cache misses, hits and stale answers', async () => {
    const before = await scrape();
    const count = (text: string, name: string) => value(text, name) ?? 0;

    clock.advance(2 * CACHE_TTL_S * 1000);
    await detail().expect(200); // fetched: a miss
    await detail().expect(200); // within the fresh TTL: a hit
    clock.advance(2 * CACHE_TTL_S * 1000);
    gateway.failing = true;
    await detail().expect(200); // a miss, the upstream fails, served stale
    gateway.failing = false;

    const after = await scrape();
    expect(
      count(after, 'enrichment_cache_misses_total') - count(before, 'enrichment_cache_misses_total'),
    ).toBe(2);
    expect(count(after, 'enrichment_cache_hits_total') - count(before, 'enrichment_cache_hits_total')).toBe(
      1,
    );
    expect(
      count(after, 'enrichment_cache_stale_served_total') -
        count(before, 'enrichment_cache_stale_served_total'),
    ).toBe(1);
  });

  it('reports sync runs by status, the lag and the last success', async () => {
    const text = await scrape();
    expect(value(text, 'sync_runs_total{status="succeeded"}')).toBeGreaterThanOrEqual(1);
    expect(value(text, 'sync_lag_seconds')).toBeGreaterThanOrEqual(0);
    const lastSuccess = value(text, 'sync_last_success_timestamp_seconds') ?? NaN;
    // The sync reads the same (fake) clock as the rest of the application.
    expect(Math.abs(lastSuccess - clock.now().getTime() / 1000)).toBeLessThan(300);
  });

  it('counts the changes sync recorded, and the change streams open and ended by reason', async () => {
    expect(value(await scrape(), 'changes_recorded_total{kind="PROCESS_ADDED"}')).toBe(1);
    await testApp.app.listen(0, '127.0.0.1');
    const { port } = testApp.app.getHttpServer().address() as AddressInfo;
    const stream = await SseClient.open(`http://127.0.0.1:${port}/api/changes/stream`, {
      Authorization: `Bearer ${token}`,
    });
    await stream.waitForComments(1);
    expect(value(await scrape(), 'change_streams_open')).toBe(1);

    stream.close();

    await waitUntil(
      async () => value(await scrape(), 'change_stream_disconnects_total{reason="client-closed"}') === 1,
    );
    expect(value(await scrape(), 'change_streams_open')).toBe(0);
  });

  it('counts rate-limit rejections by limiter', async () => {
    testApp.app.get(RateLimitMetrics).rejected('login-username');
    testApp.app.get(RateLimitMetrics).rejected('login-username');
    const text = await scrape();
    expect(value(text, 'rate_limit_rejections_total{limiter="login-username"}')).toBe(2);
  });
});
