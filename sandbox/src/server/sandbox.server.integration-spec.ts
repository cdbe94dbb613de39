import { createServer } from 'node:net';
import { Sandbox } from '../control/sandbox.js';
import { SandboxClock } from '../control/sandbox-clock.js';
import { OperationsSimulator } from '../simulation/operations-simulator.js';
import { demoSimulationOptions } from '../simulation/simulation-options.js';
import { startSandboxServer, type SandboxServer } from './sandbox.server.js';
import { statusOf } from '../testing/status-of.js';

const API_KEY = 'test-key-0123456789';
const NOW = new Date('2026-03-14T12:00:00Z');
const headers = { 'X-Api-Key': API_KEY };

interface ListBody {
  items: { numero: string; updatedAt: string }[];
  nextCursor: string | null;
}

describe(startSandboxServer.name, () => {
  // The sandbox's own copy of the simulation, to compare answers with.
  const simulator = new OperationsSimulator(demoSimulationOptions(NOW));
  const clock = SandboxClock.frozenAt(NOW);
  const sandbox = new Sandbox(demoSimulationOptions(NOW), clock);
  let server: SandboxServer;

  beforeEach(async () => {
    server = await startSandboxServer({ apiKey: API_KEY, sandbox, clock });
  });

  afterEach(async () => {
    await server.close();
  });

  const get = (path: string, init: RequestInit = {}): Promise<Response> =>
    fetch(`${server.url}${path}`, { headers, ...init });

  describe('API key', () => {
    it.each([
      ['missing', {}],
      ['wrong', { 'X-Api-Key': 'nope' }],
      ['empty', { 'X-Api-Key': '' }],
    ])('answers 401 when the key is %s', async (_why, sent) => {
      const response = await fetch(`${server.url}/processes`, { headers: sent });
      expect(response.status).toBe(401);
      expect(await response.json()).toEqual(expect.objectContaining({ error: 'unauthorized' }));
      expect(server.stats().byOutcome.unauthorized).toBe(1);
    });

    it('protects the admin routes too', async () => {
      expect(await statusOf(`${server.url}/_sim/stats`)).toBe(401);
      expect(await statusOf(`${server.url}/_sim/faults`, { method: 'DELETE' })).toBe(401);
    });
  });

  describe('list and detail', () => {
    it('pages through the list with nextCursor, exactly what the simulator holds', async () => {
      const seen: string[] = [];
      let cursor: string | null = null;
      do {
        const query = new URLSearchParams({ limit: '50', ...(cursor !== null ? { cursor } : {}) });
        const response = await get(`/processes?${query.toString()}`);
        expect(response.status).toBe(200);
        expect(response.headers.get('content-type')).toMatch(/^application\/json/);
        const body = (await response.json()) as ListBody;
        expect(body.items.length).toBeLessThanOrEqual(50);
        seen.push(...body.items.map((item) => item.numero));
        cursor = body.nextCursor;
      } while (cursor !== null);

      const expected = [...simulator.processesAt(NOW)].map((process) => process.numero);
      expect(seen.sort()).toEqual(expected.sort());
    });

    it('sends items in the OperationsProcess wire shape and honours updatedSince', async () => {
      const since = '2026-03-10T00:00:00Z';
      const response = await get(`/processes?updatedSince=${encodeURIComponent(since)}&limit=1000`);
      const body = (await response.json()) as ListBody;

      const expected = simulator.listChangedProcesses(
        { updatedSince: since, cursor: null, limit: 1000 },
        NOW,
      );
      expect(body).toEqual(JSON.parse(JSON.stringify(expected)));
      expect(body.items.length).toBeGreaterThan(0);
      expect(body.items.every((item) => item.updatedAt > since)).toBe(true);
      expect(Object.keys(body.items[0] ?? {})).toEqual(
        expect.arrayContaining(['numero', 'status', 'updatedAt', 'customer', 'containers', 'events']),
      );
    });

    it('answers the detail case-insensitively, and 404 for an unknown numero', async () => {
      const numero = simulator.processAt(10, NOW)?.numero ?? '';

      const response = await get(`/processes/${numero.toLowerCase()}`);
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual(
        JSON.parse(JSON.stringify(simulator.getProcessDetail(numero, NOW))),
      );

      expect((await get('/processes/IMP-2026-999999')).status).toBe(404);
      expect((await get('/processes/%E0%A4%A')).status).toBe(400);
      expect((await get('/elsewhere')).status).toBe(404);
      expect((await get('/processes', { method: 'POST' })).status).toBe(405);
    });

    it.each([['limit=0'], ['limit=abc'], ['limit=5000'], ['updatedSince=yesterday'], ['cursor=bm90LW91cnM']])(
      'answers 400 to %s',
      async (query) => {
        const response = await get(`/processes?${query}`);
        expect(response.status).toBe(400);
        expect(server.stats().byOutcome.badRequest).toBe(1);
      },
    );
  });

  describe('faults', () => {
    it('answers 500 or 503 at an error rate of 1', async () => {
      server.setFaults({ errorRate: 1 });
      const statuses = await Promise.all(
        [1, 2, 3, 4, 5, 6].map(async () => (await get('/processes')).status),
      );
      expect(statuses.every((status) => status === 500 || status === 503)).toBe(true);
      expect(server.stats().byOutcome.error).toBe(6);
    });

    it('never answers at a timeout rate of 1', async () => {
      server.setFaults({ timeoutRate: 1 });
      await expect(get('/processes', { signal: AbortSignal.timeout(300) })).rejects.toThrow(
        /aborted|timeout/i,
      );
      expect(server.stats().byOutcome.timeout).toBe(1);
    });

    it('drops every connection during a reset outage, and answers 503 during an unavailable one', async () => {
      server.setFaults({ outage: 'reset' });
      await expect(get('/processes')).rejects.toThrow('fetch failed');
      server.setFaults({ outage: 'unavailable' });
      const response = await get('/processes/IMP-2026-000001');
      expect(response.status).toBe(503);
      expect(response.headers.get('retry-after')).not.toBeNull();
      // An outage comes before the key check: nothing upstream is reachable at all.
      expect(await statusOf(`${server.url}/processes`)).toBe(503);
      expect(server.stats().byOutcome).toEqual(expect.objectContaining({ reset: 1, unavailable: 2 }));
    });

    it('redirects elsewhere at a redirect rate of 1', async () => {
      server.setFaults({ redirectRate: 1, redirectLocation: 'http://127.0.0.1:9/stolen' });
      const response = await get('/processes', { redirect: 'manual' });
      expect(response.status).toBe(302);
      expect(response.headers.get('location')).toBe('http://127.0.0.1:9/stolen');
    });

    it('streams an oversized body at an oversized rate of 1', async () => {
      server.setFaults({ oversizedRate: 1, oversizedBytes: 2 * 1024 * 1024 });
      const response = await get('/processes');
      expect(response.status).toBe(200);
      expect(response.headers.get('content-length')).toBeNull();
      const text = await response.text();
      expect(text.length).toBeGreaterThan(2 * 1024 * 1024);
      expect(() => JSON.parse(text) as unknown).not.toThrow();
    });

    it('sends invalid JSON, the wrong shape or HTML as garbage', async () => {
      server.setFaults({ garbageRate: 1, garbageKind: 'invalid-json' });
      const invalid = await get('/processes');
      expect(invalid.status).toBe(200);
      // Errors come from fetch's own realm, so match messages rather than constructors.
      await expect(invalid.json()).rejects.toThrow(/JSON/);

      server.setFaults({ garbageKind: 'wrong-shape' });
      const wrong = (await (await get('/processes')).json()) as Record<string, unknown>;
      expect(Array.isArray(wrong.items)).toBe(false);

      server.setFaults({ garbageKind: 'html' });
      expect((await get('/processes/IMP-2026-000001')).headers.get('content-type')).toMatch(/^text\/html/);
      expect(server.stats().byOutcome.garbage).toBe(3);
    });

    it('adds latency: a delayed answer is still pending while a later, undelayed one is answered', async () => {
      server.setFaults({ latencyMs: 60_000 });
      const abort = new AbortController();
      const delayed = get('/processes?limit=1', { signal: abort.signal }).then(
        () => 'answered',
        () => 'aborted',
      );
      while (server.stats().requests < 1) await new Promise((resolve) => setImmediate(resolve));

      server.setFaults({ latencyMs: 0 });
      expect((await get('/processes?limit=1')).status).toBe(200);
      abort.abort();

      expect(await delayed).toBe('aborted');
    });

    it('takes faults at start, and changes them at runtime through the handle or the admin route', async () => {
      const faulty = await startSandboxServer({
        apiKey: API_KEY,
        sandbox,
        clock,
        faults: { errorRate: 1 },
      });
      try {
        expect(await statusOf(`${faulty.url}/processes`, { headers })).toBeGreaterThanOrEqual(500);
        expect(await statusOf(`${faulty.url}/_sim/faults`, { method: 'DELETE', headers })).toBe(200);
        expect(await statusOf(`${faulty.url}/processes?limit=1`, { headers })).toBe(200);
        const put = await fetch(`${faulty.url}/_sim/faults`, {
          method: 'PUT',
          headers,
          body: JSON.stringify({ outage: 'unavailable' }),
        });
        expect(((await put.json()) as { outage: string }).outage).toBe('unavailable');
        expect(await statusOf(`${faulty.url}/processes`, { headers })).toBe(503);
        const refused = await statusOf(`${faulty.url}/_sim/faults`, {
          method: 'PUT',
          headers,
          body: JSON.stringify({ errorRate: 2 }),
        });
        expect(refused).toBe(400);
      } finally {
        await faulty.close();
      }
      expect(() => server.setFaults({ latencyMs: -1 })).toThrow(RangeError);
      server.setFaults({ errorRate: 1 });
      server.resetFaults();
      expect(server.faults().errorRate).toBe(0);
    });
  });

  describe('bookkeeping', () => {
    it('counts every upstream request, whatever became of it, but not admin calls', async () => {
      expect(server.requestCount).toBe(0);
      await get('/processes?limit=1');
      await fetch(`${server.url}/processes`);
      await get('/processes/unknown');
      await get('/_sim/stats');
      expect(server.requestCount).toBe(3);
      const stats = (await (await get('/_sim/stats')).json()) as { requests: number };
      expect(stats.requests).toBe(3);
    });

    it('releases its port on close, hanging requests included', async () => {
      const { port } = server;
      server.setFaults({ timeoutRate: 1 });
      const hanging = get('/processes');
      await new Promise((resolve) => setTimeout(resolve, 50));
      await server.close();
      await expect(hanging).rejects.toThrow('fetch failed');
      await expect(fetch(`http://127.0.0.1:${port}/processes`, { headers })).rejects.toThrow('fetch failed');

      const probe = createServer();
      await new Promise<void>((resolve, reject) => {
        probe.once('error', reject);
        probe.listen(port, '127.0.0.1', resolve);
      });
      await new Promise((resolve) => probe.close(resolve));
      server = await startSandboxServer({ apiKey: API_KEY, sandbox, clock, port });
      expect(server.port).toBe(port);
    });
  });
});
