import { HttpService } from '@nestjs/axios';
import { Logger } from '@nestjs/common';
import axios from 'axios';
import { Registry } from 'prom-client';
import type { SandboxServer, SimulatorFaults } from '../../sandbox/src/server/sandbox.server.js';
import { loadAppConfig } from '../../src/config/app.config.js';
import { OperationsMetrics } from '../../src/operations/operations.metrics.js';
import { OperationsUnavailableError } from '../../src/operations/operations.gateway.js';
import type { OperationsProcess } from '../../src/operations/operations.types.js';
import type { OperationsCallEvent } from '../../src/operations/resilience/operations-resilience.js';
import {
  ResilientOperationsGateway,
  defaultResilienceOptions,
  type OperationsResilienceOptions,
} from '../../src/operations/resilience/resilient-operations.gateway.js';
import {
  HttpOperationsGateway,
  MAX_UPSTREAM_RESPONSE_BYTES,
} from '../../src/operations/http/http-operations.gateway.js';
import { startTestSandbox } from '../support/sandbox.js';

const API_KEY = 'simulator-key-7c21';
const NOW = new Date('2026-03-14T12:00:00Z');

function gatewayFor(
  server: SandboxServer,
  options: Partial<OperationsResilienceOptions> = {},
  env: NodeJS.ProcessEnv = {},
) {
  const config = loadAppConfig({
    NODE_ENV: 'test',
    OPERATIONS_BASE_URL: server.url,
    OPERATIONS_API_KEY: API_KEY,
    OPERATIONS_TIMEOUT_MS: '400',
    ...env,
  });
  return new ResilientOperationsGateway(
    'http',
    new HttpOperationsGateway(new HttpService(axios.create()), config),
    {
      ...defaultResilienceOptions(config.operations.timeoutMs),
      retryInitialDelayMs: 10,
      retryMaxDelayMs: 20,
      ...options,
    },
  );
}

const firstPage = { updatedSince: null, cursor: null, limit: 50 };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The HTTP adapter against the sandbox's HTTP API: the two sides of the upstream API agree. */
describe(`${HttpOperationsGateway.name} against the sandbox`, () => {
  let server: SandboxServer;

  beforeAll(() => {
    Logger.overrideLogger(false);
  });

  beforeEach(async () => {
    server = (await startTestSandbox({ at: NOW, apiKey: API_KEY })).server;
  });

  afterEach(async () => {
    await server.close();
  });

  it('syncs every page with no item dropped, and details match the sandbox', async () => {
    const sut = gatewayFor(server);
    const items: OperationsProcess[] = [];
    let cursor: string | null = null;
    do {
      const page = await sut.listChangedProcesses({ updatedSince: null, cursor, limit: 100 });
      items.push(...page.items);
      cursor = page.nextCursor;
    } while (cursor !== null);

    const expected: OperationsProcess[] = [];
    cursor = null;
    do {
      const page = server.sandbox.listChangedProcesses({ updatedSince: null, cursor, limit: 100 });
      expected.push(...page.items);
      cursor = page.nextCursor;
    } while (cursor !== null);
    expect(items.length).toBeGreaterThan(0);
    expect(items.map((item) => item.numero)).toEqual(expected.map((item) => item.numero));

    const numero = items[0]?.numero ?? '';
    await expect(sut.getProcessDetail(numero)).resolves.toEqual(server.sandbox.getProcessDetail(numero));
    await expect(sut.getProcessDetail(numero.toLowerCase())).resolves.toMatchObject({ numero });
  });

  it('answers null for an unknown process', async () => {
    const sut = gatewayFor(server);

    await expect(sut.getProcessDetail('IMP-1999-999999')).resolves.toBeNull();
    expect(server.requestCount).toBe(1);
  });

  it('fails, without retrying, with a wrong API key', async () => {
    const sut = gatewayFor(server, {}, { OPERATIONS_API_KEY: 'wrong-key' });

    await expect(sut.listChangedProcesses(firstPage)).rejects.toBeInstanceOf(OperationsUnavailableError);
    expect(server.stats().byOutcome.unauthorized).toBe(1);
    expect(server.requestCount).toBe(1);
  });

  it('succeeds through latency within the timeout', async () => {
    server.setFaults({ latencyMs: 100 });
    const sut = gatewayFor(server, {}, { OPERATIONS_TIMEOUT_MS: '2000' });

    const page = await sut.listChangedProcesses(firstPage);

    expect(page.items.length).toBeGreaterThan(0);
  });

  const refusals: Array<[string, Partial<SimulatorFaults>]> = [
    ['a redirect', { redirectRate: 1 }],
    ['an oversized body', { oversizedRate: 1 }],
    ['invalid JSON', { garbageRate: 1, garbageKind: 'invalid-json' }],
    ['a wrong shape', { garbageRate: 1, garbageKind: 'wrong-shape' }],
    ['an HTML page', { garbageRate: 1, garbageKind: 'html' }],
  ];

  it.each(refusals)('fails on %s without retrying', async (_case, faults) => {
    server.setFaults(faults);
    const sut = gatewayFor(server);

    await expect(sut.listChangedProcesses(firstPage)).rejects.toBeInstanceOf(OperationsUnavailableError);
    expect(server.requestCount).toBe(1);
  });

  it.each([...refusals, ['a server error', { errorRate: 1 }] as [string, Partial<SimulatorFaults>]])(
    'opens the circuit on %s and stops calling, with the cause in the failures and the bytes counted',
    async (_case, faults) => {
      server.setFaults(faults);
      const sut = gatewayFor(server, { breakerThreshold: 3, maxRetries: 0, halfOpenAfterMs: 60_000 });
      const events: OperationsCallEvent[] = [];
      sut.addObserver({ callFinished: (event) => events.push(event) });

      for (let call = 0; call < 10; call++) {
        await expect(sut.listChangedProcesses(firstPage)).rejects.toBeInstanceOf(OperationsUnavailableError);
      }

      expect(sut.circuitState).toBe('open');
      expect(server.requestCount).toBe(3);
      const failures = events.map((event) => event.failure);
      expect(failures.slice(0, 3).every((failure) => failure !== 'circuit-open')).toBe(true);
      expect(failures.slice(3)).toEqual(Array.from({ length: 7 }, () => 'circuit-open'));
      // What was read stays within the cap, whatever the upstream sends.
      for (const event of events)
        expect(event.responseBytes).toBeLessThanOrEqual(MAX_UPSTREAM_RESPONSE_BYTES);
      expect(events.slice(3).every((event) => event.responseBytes === 0)).toBe(true);
    },
  );

  it('retries reset connections, then fails', async () => {
    server.setFaults({ outage: 'reset' });
    const sut = gatewayFor(server, { maxRetries: 2 });

    await expect(sut.listChangedProcesses(firstPage)).rejects.toBeInstanceOf(OperationsUnavailableError);
    expect(server.requestCount).toBe(3);
  });

  it('fails a hanging upstream at the deadline, whatever retries remain', async () => {
    server.setFaults({ timeoutRate: 1 });
    // One 400 ms attempt, a backoff and part of a second: never a third.
    const sut = gatewayFor(server, { maxRetries: 5, deadlineMs: 600 });

    await expect(sut.listChangedProcesses(firstPage)).rejects.toBeInstanceOf(OperationsUnavailableError);
    expect(server.requestCount).toBeGreaterThanOrEqual(1);
    expect(server.requestCount).toBeLessThanOrEqual(2);
  });

  it.each([
    ['never answers', { timeoutRate: 1 }, 'timeout', 'timeout'],
    ['resets every connection', { outage: 'reset' }, 'reset', 'network'],
  ] as const)(
    'counts every request when the upstream %s, those that opened the circuit included',
    async (_case, faults, simulatorOutcome, failure) => {
      server.setFaults(faults);
      // Attempts long enough to reach the sandbox on a loaded machine, and no deadline to cut
      // one short: an attempt given up before its request arrived is counted here and not there.
      const sut = gatewayFor(server, {
        attemptTimeoutMs: 300,
        maxRetries: 1,
        deadlineMs: 5_000,
        halfOpenAfterMs: 60_000,
      });
      const registry = new Registry();
      new OperationsMetrics(registry, sut).onModuleInit();
      const counted = async (kind: string) =>
        (await registry.getSingleMetric('operations_upstream_calls_total')?.get())?.values
          .filter((value) => value.labels.failure === kind)
          .reduce((sum, value) => sum + value.value, 0) ?? 0;

      while (sut.circuitState === 'closed') {
        await expect(sut.listChangedProcesses(firstPage)).rejects.toBeInstanceOf(OperationsUnavailableError);
      }
      await expect(sut.listChangedProcesses(firstPage)).rejects.toBeInstanceOf(OperationsUnavailableError);
      // A timed-out attempt reports itself once its request is aborted.
      for (
        let wait = 0;
        wait < 50 && (await counted(failure)) < server.stats().byOutcome[simulatorOutcome];
        wait++
      )
        await sleep(10);

      expect(server.stats().byOutcome[simulatorOutcome]).toBeGreaterThanOrEqual(5);
      expect(await counted(failure)).toBe(server.stats().byOutcome[simulatorOutcome]);
      expect(await counted('circuit-open')).toBeGreaterThanOrEqual(1);
    },
  );

  it('opens the circuit in an outage, stops calling, and closes once the upstream is back', async () => {
    server.setFaults({ outage: 'unavailable' });
    const sut = gatewayFor(server, { breakerThreshold: 4, maxRetries: 1, halfOpenAfterMs: 300 });

    await expect(sut.getProcessDetail('IMP-1')).rejects.toBeInstanceOf(OperationsUnavailableError);
    await expect(sut.getProcessDetail('IMP-1')).rejects.toBeInstanceOf(OperationsUnavailableError);
    expect(sut.circuitState).toBe('open');
    expect(server.requestCount).toBe(4);

    await expect(sut.listChangedProcesses(firstPage)).rejects.toBeInstanceOf(OperationsUnavailableError);
    await expect(sut.getProcessDetail('IMP-1')).rejects.toBeInstanceOf(OperationsUnavailableError);
    expect(server.requestCount).toBe(4);

    server.resetFaults();
    await sleep(350);
    const page = await sut.listChangedProcesses(firstPage);

    expect(page.items.length).toBeGreaterThan(0);
    expect(sut.circuitState).toBe('closed');
    expect(server.requestCount).toBe(5);
  });
});
