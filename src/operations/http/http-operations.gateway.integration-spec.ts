import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { HttpService } from '@nestjs/axios';
import { Logger } from '@nestjs/common';
import axios from 'axios';
import { loadAppConfig } from '../../config/app.config.js';
import { OperationsUnavailableError } from '../operations.gateway.js';
import type { OperationsCallEvent, OperationsCircuitState } from '../resilience/operations-resilience.js';
import {
  ResilientOperationsGateway,
  defaultResilienceOptions,
  type OperationsResilienceOptions,
} from '../resilience/resilient-operations.gateway.js';
import { HttpOperationsGateway, MAX_UPSTREAM_RESPONSE_BYTES } from './http-operations.gateway.js';

const API_KEY = 'test-api-key-3f9a';

interface RecordedRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
}

type Handler = (url: URL, response: ServerResponse) => void;

/** A real upstream on an ephemeral port whose behaviour each test sets. */
async function startUpstream() {
  const requests: RecordedRequest[] = [];
  let handler: Handler = (_url, response) => sendJson(response, 500, {});
  const server = createServer((request, response) => {
    requests.push({ method: request.method ?? '', url: request.url ?? '', headers: request.headers });
    handler(new URL(request.url ?? '/', 'http://upstream.invalid'), response);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    requests,
    respond(next: Handler) {
      handler = next;
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
type Upstream = Awaited<ReturnType<typeof startUpstream>>;

function sendJson(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'Content-Type': 'application/json' });
  response.end(JSON.stringify(body));
}

const respondWith =
  (status: number, body: unknown = {}): Handler =>
  (_url, response) =>
    sendJson(response, status, body);

/** Answers with each handler in turn, the last one from then on. */
function sequence(...handlers: Handler[]): Handler {
  let index = 0;
  return (url, response) => {
    const handler = handlers[Math.min(index, handlers.length - 1)];
    index += 1;
    handler?.(url, response);
  };
}

function wireProcess(numero: string, overrides: Record<string, unknown> = {}) {
  return {
    numero,
    status: 'IN_TRANSIT',
    updatedAt: '2026-03-14T09:00:00-03:00',
    type: 'IMPORT',
    mode: 'SEA',
    customer: { id: 'acme', name: 'ACME Importadora Ltda' },
    customerReference: null,
    origin: { code: 'CNSHA', name: 'Shanghai' },
    destination: { code: 'BRSSZ', name: 'Santos' },
    shipmentDate: '2026-02-20',
    eta: null,
    arrivalDate: null,
    containers: ['mscu 123456-5'],
    customsChannel: null,
    events: [],
    ...overrides,
  };
}

function wireDetail(numero: string) {
  return {
    numero,
    parties: [{ role: 'IMPORTER', name: 'ACME Importadora Ltda', taxId: null, country: 'BR' }],
    shipment: {
      type: 'IMPORT',
      mode: 'SEA',
      incoterm: 'FOB',
      origin: { code: 'CNSHA', name: 'Shanghai' },
      destination: { code: 'BRSSZ', name: 'Santos' },
      shipmentDate: '2026-02-20',
      eta: null,
      arrivalDate: null,
      bookingNumber: null,
      masterBill: null,
      houseBill: null,
      cargoDescription: null,
      packages: null,
      grossWeightKg: null,
      volumeM3: null,
    },
  };
}

const page = { items: [wireProcess('IMP-1')], nextCursor: null };

function gatewayFor(upstream: Upstream, options: Partial<OperationsResilienceOptions> = {}, timeoutMs = 300) {
  const config = loadAppConfig({
    NODE_ENV: 'test',
    OPERATIONS_BASE_URL: `${upstream.origin}/ops`,
    OPERATIONS_API_KEY: API_KEY,
    OPERATIONS_TIMEOUT_MS: String(timeoutMs),
  });
  return new ResilientOperationsGateway(
    'http',
    new HttpOperationsGateway(new HttpService(axios.create()), config),
    {
      ...defaultResilienceOptions(timeoutMs),
      retryInitialDelayMs: 10,
      retryMaxDelayMs: 20,
      ...options,
    },
  );
}

async function failureOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to fail');
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The HTTP adapter behind the resilience policies, as the operations module wires it, on a real upstream. */
describe(`${HttpOperationsGateway.name} behind ${ResilientOperationsGateway.name}`, () => {
  let upstream: Upstream;

  beforeAll(() => {
    Logger.overrideLogger(false);
  });

  beforeEach(async () => {
    upstream = await startUpstream();
  });

  afterEach(async () => {
    await upstream.close();
  });

  describe('answers', () => {
    it('lists changed processes with the query, the key and the mapped items', async () => {
      upstream.respond(
        respondWith(200, {
          items: [wireProcess('IMP-1'), wireProcess('IMP-2', { status: 'LOST' }), null, wireProcess('IMP-3')],
          nextCursor: 'page-2',
        }),
      );
      const sut = gatewayFor(upstream);

      const result = await sut.listChangedProcesses({
        updatedSince: '2026-03-01T00:00:00Z',
        cursor: 'page-1',
        limit: 50,
      });

      expect(result.nextCursor).toBe('page-2');
      expect(result.items.map((item) => item.numero)).toEqual(['IMP-1', 'IMP-3']);
      expect(result.items[0]).toMatchObject({
        updatedAt: '2026-03-14T12:00:00Z',
        containers: ['MSCU1234565'],
      });
      expect(upstream.requests).toHaveLength(1);
      const [request] = upstream.requests;
      const url = new URL(request?.url ?? '', 'http://x');
      expect(request?.method).toBe('GET');
      expect(url.pathname).toBe('/ops/processes');
      expect(Object.fromEntries(url.searchParams)).toEqual({
        updatedSince: '2026-03-01T00:00:00Z',
        cursor: 'page-1',
        limit: '50',
      });
      expect(request?.headers['x-api-key']).toBe(API_KEY);
    });

    it('leaves out a null cursor and updatedSince', async () => {
      upstream.respond(respondWith(200, page));
      const sut = gatewayFor(upstream);

      await sut.listChangedProcesses({ updatedSince: null, cursor: null, limit: 10 });

      expect(upstream.requests[0]?.url).toBe('/ops/processes?limit=10');
    });

    it('gets a process detail', async () => {
      upstream.respond(respondWith(200, wireDetail('IMP-2026-000123')));
      const sut = gatewayFor(upstream);

      const detail = await sut.getProcessDetail('IMP-2026-000123');

      expect(detail).toMatchObject({ numero: 'IMP-2026-000123', containers: [], voyages: [] });
      expect(detail?.parties).toHaveLength(1);
      expect(upstream.requests[0]?.url).toBe('/ops/processes/IMP-2026-000123');
      expect(upstream.requests[0]?.headers['x-api-key']).toBe(API_KEY);
    });

    it('maps 404 on a detail to null, without retrying', async () => {
      upstream.respond(respondWith(404, { error: 'not found' }));
      const sut = gatewayFor(upstream);

      await expect(sut.getProcessDetail('IMP-404')).resolves.toBeNull();
      expect(upstream.requests).toHaveLength(1);
    });

    it('treats 404 on the list as a failure', async () => {
      upstream.respond(respondWith(404));
      const sut = gatewayFor(upstream);

      await expect(
        sut.listChangedProcesses({ updatedSince: null, cursor: null, limit: 10 }),
      ).rejects.toBeInstanceOf(OperationsUnavailableError);
    });

    it('refuses a detail for another process than the one asked for', async () => {
      upstream.respond(respondWith(200, wireDetail('IMP-OTHER')));
      const sut = gatewayFor(upstream);

      await expect(sut.getProcessDetail('IMP-1')).rejects.toBeInstanceOf(OperationsUnavailableError);
    });
  });

  describe('path safety', () => {
    it.each(['../admin', '..', '.', 'a/b', 'IMP-1?x=1', 'IMP-1#x', 'a%2Fb', 'http://evil.example/x', ''])(
      'never sends a request for numero %j',
      async (numero) => {
        upstream.respond(respondWith(200, wireDetail(numero)));
        const sut = gatewayFor(upstream);

        await expect(sut.getProcessDetail(numero)).resolves.toBeNull();
        expect(upstream.requests).toEqual([]);
      },
    );
  });

  describe('timeouts', () => {
    it('accepts a slow answer within the attempt timeout', async () => {
      upstream.respond((_url, response) => {
        setTimeout(() => sendJson(response, 200, page), 100);
      });
      const sut = gatewayFor(upstream, {}, 1000);

      const result = await sut.listChangedProcesses({ updatedSince: null, cursor: null, limit: 10 });

      expect(result.items).toHaveLength(1);
      expect(upstream.requests).toHaveLength(1);
    });

    it('fails a hanging upstream within the deadline, however many retries are allowed', async () => {
      upstream.respond(() => undefined);
      // Without the deadline, 21 attempts of 250 ms would take over 5 s.
      const sut = gatewayFor(upstream, { deadlineMs: 600, maxRetries: 20, breakerThreshold: 100 }, 250);

      const error = await failureOf(sut.getProcessDetail('IMP-1'));

      expect(error).toBeInstanceOf(OperationsUnavailableError);
      // 600 ms hold at most three attempts of 250 ms: the deadline, not the retries, ended it.
      expect(upstream.requests.length).toBeGreaterThanOrEqual(1);
      expect(upstream.requests.length).toBeLessThanOrEqual(3);
    }, 15_000);

    it('fails an upstream that sends headers and then stalls the body', async () => {
      upstream.respond((_url, response) => {
        response.writeHead(200, { 'Content-Type': 'application/json' });
        response.write('{"items": [');
      });
      const sut = gatewayFor(upstream, { deadlineMs: 600 }, 250);

      await expect(
        sut.listChangedProcesses({ updatedSince: null, cursor: null, limit: 10 }),
      ).rejects.toBeInstanceOf(OperationsUnavailableError);
    });
  });

  describe('retries', () => {
    it('retries a transient 503 and succeeds', async () => {
      upstream.respond(sequence(respondWith(503), respondWith(200, page)));
      const sut = gatewayFor(upstream);

      const result = await sut.listChangedProcesses({ updatedSince: null, cursor: null, limit: 10 });

      expect(result.items).toHaveLength(1);
      expect(upstream.requests).toHaveLength(2);
    });

    it('gives up after the configured retries', async () => {
      upstream.respond(respondWith(502));
      const sut = gatewayFor(upstream, { maxRetries: 2 });

      await expect(sut.getProcessDetail('IMP-1')).rejects.toBeInstanceOf(OperationsUnavailableError);
      expect(upstream.requests).toHaveLength(3);
    });

    it('retries a dropped connection', async () => {
      upstream.respond(sequence((_url, response) => response.socket?.destroy(), respondWith(200, page)));
      const sut = gatewayFor(upstream);

      const result = await sut.listChangedProcesses({ updatedSince: null, cursor: null, limit: 10 });

      expect(result.items).toHaveLength(1);
      expect(upstream.requests).toHaveLength(2);
    });

    it.each([400, 401, 403, 429, 500])('does not retry %i', async (status) => {
      upstream.respond(respondWith(status));
      const sut = gatewayFor(upstream);

      await expect(sut.getProcessDetail('IMP-1')).rejects.toBeInstanceOf(OperationsUnavailableError);
      expect(upstream.requests).toHaveLength(1);
    });

    it('does not retry a garbage body', async () => {
      upstream.respond((_url, response) => {
        response.writeHead(200, { 'Content-Type': 'application/json' });
        response.end('{"items": [ this is not json');
      });
      const sut = gatewayFor(upstream);

      await expect(
        sut.listChangedProcesses({ updatedSince: null, cursor: null, limit: 10 }),
      ).rejects.toBeInstanceOf(OperationsUnavailableError);
      expect(upstream.requests).toHaveLength(1);
    });

    it('refuses a malformed page envelope', async () => {
      upstream.respond(respondWith(200, { items: 'none', nextCursor: null }));
      const sut = gatewayFor(upstream);

      await expect(
        sut.listChangedProcesses({ updatedSince: null, cursor: null, limit: 10 }),
      ).rejects.toBeInstanceOf(OperationsUnavailableError);
    });
  });

  describe('circuit breaker', () => {
    it('opens on a 5xx storm, fails fast without calling, then half-opens and closes', async () => {
      upstream.respond(respondWith(503));
      const sut = gatewayFor(upstream, { breakerThreshold: 3, maxRetries: 0, halfOpenAfterMs: 300 });
      const states: OperationsCircuitState[] = [];
      sut.addObserver({ circuitStateChanged: (state) => states.push(state) });

      for (let call = 0; call < 3; call += 1) {
        await expect(sut.getProcessDetail('IMP-1')).rejects.toBeInstanceOf(OperationsUnavailableError);
      }
      expect(sut.circuitState).toBe('open');
      const reached = upstream.requests.length;

      for (let call = 0; call < 5; call += 1) {
        await expect(sut.getProcessDetail('IMP-1')).rejects.toBeInstanceOf(OperationsUnavailableError);
      }
      expect(upstream.requests).toHaveLength(reached);

      upstream.respond(respondWith(200, wireDetail('IMP-1')));
      await sleep(350);
      await expect(sut.getProcessDetail('IMP-1')).resolves.toMatchObject({ numero: 'IMP-1' });
      expect(sut.circuitState).toBe('closed');
      expect(upstream.requests).toHaveLength(reached + 1);
      expect(states).toEqual(['open', 'half-open', 'closed']);
    });

    it('opens again when the half-open trial fails', async () => {
      upstream.respond(respondWith(500));
      const sut = gatewayFor(upstream, { breakerThreshold: 2, maxRetries: 0, halfOpenAfterMs: 200 });

      await failureOf(sut.getProcessDetail('IMP-1'));
      await failureOf(sut.getProcessDetail('IMP-1'));
      expect(sut.circuitState).toBe('open');
      await sleep(250);
      await failureOf(sut.getProcessDetail('IMP-1'));

      expect(sut.circuitState).toBe('open');
      expect(upstream.requests).toHaveLength(3);
    });

    it('is not opened by client errors', async () => {
      upstream.respond(respondWith(400));
      const sut = gatewayFor(upstream, { breakerThreshold: 2, maxRetries: 0 });

      for (let call = 0; call < 4; call += 1) {
        await failureOf(sut.getProcessDetail('IMP-1'));
      }

      expect(sut.circuitState).toBe('closed');
      expect(upstream.requests).toHaveLength(4);
    });
  });

  describe('refused responses', () => {
    it('does not follow a redirect', async () => {
      const elsewhere = await startUpstream();
      elsewhere.respond(respondWith(200, wireDetail('IMP-1')));
      upstream.respond((_url, response) => {
        response.writeHead(302, { Location: `${elsewhere.origin}/steal` });
        response.end();
      });
      const sut = gatewayFor(upstream);

      try {
        await expect(sut.getProcessDetail('IMP-1')).rejects.toBeInstanceOf(OperationsUnavailableError);
        expect(elsewhere.requests).toEqual([]);
        expect(upstream.requests).toHaveLength(1);
      } finally {
        await elsewhere.close();
      }
    });

    it('refuses a body over the size cap', async () => {
      const huge = JSON.stringify({
        items: [],
        nextCursor: null,
        padding: 'x'.repeat(MAX_UPSTREAM_RESPONSE_BYTES),
      });
      upstream.respond((_url, response) => {
        response.writeHead(200, { 'Content-Type': 'application/json' });
        response.end(huge);
      });
      const sut = gatewayFor(upstream, {}, 5000);

      await expect(
        sut.listChangedProcesses({ updatedSince: null, cursor: null, limit: 10 }),
      ).rejects.toBeInstanceOf(OperationsUnavailableError);
      expect(upstream.requests).toHaveLength(1);
    });

    it('refuses a streamed body over the size cap', async () => {
      upstream.respond((_url, response) => {
        response.writeHead(200, { 'Content-Type': 'application/json' });
        const chunk = 'x'.repeat(64 * 1024);
        const writeMore = () => {
          while (!response.destroyed && response.write(chunk));
          if (!response.destroyed) response.once('drain', writeMore);
        };
        writeMore();
      });
      const sut = gatewayFor(upstream, {}, 5000);

      await expect(
        sut.listChangedProcesses({ updatedSince: null, cursor: null, limit: 10 }),
      ).rejects.toBeInstanceOf(OperationsUnavailableError);
    });
  });

  describe('failures', () => {
    it('never names the upstream URL or the key', async () => {
      const sut = gatewayFor(upstream, { maxRetries: 0 });
      const failures = [respondWith(500), respondWith(401), respondWith(200, 'not a page'), () => undefined];
      for (const failure of failures) {
        upstream.respond(failure);
        const error = await failureOf(
          sut.listChangedProcesses({ updatedSince: null, cursor: null, limit: 10 }),
        );

        expect(error).toBeInstanceOf(OperationsUnavailableError);
        const text = `${String(error)} ${JSON.stringify(error)} ${String((error as Error).cause)}`;
        expect(text).not.toContain(upstream.origin);
        expect(text).not.toContain('127.0.0.1');
        expect(text).not.toContain(API_KEY);
        expect(axios.isAxiosError((error as Error).cause)).toBe(false);
      }
    });

    it('fails when nothing listens', async () => {
      await upstream.close();
      const sut = gatewayFor(upstream);

      await expect(sut.getProcessDetail('IMP-1')).rejects.toBeInstanceOf(OperationsUnavailableError);
      upstream = await startUpstream();
    });

    it('rejects calls beyond the bulkhead', async () => {
      upstream.respond((_url, response) => {
        setTimeout(() => sendJson(response, 200, wireDetail('IMP-1')), 100);
      });
      const sut = gatewayFor(upstream, { maxConcurrent: 1, maxQueued: 0 });

      const results = await Promise.allSettled([
        sut.getProcessDetail('IMP-1'),
        sut.getProcessDetail('IMP-1'),
      ]);

      expect(results.map((result) => result.status).sort()).toEqual(['fulfilled', 'rejected']);
      expect(results.find((result) => result.status === 'rejected')?.reason).toBeInstanceOf(
        OperationsUnavailableError,
      );
      expect(upstream.requests).toHaveLength(1);
    });

    it('reports every call to its observers', async () => {
      upstream.respond(sequence(respondWith(200, wireDetail('IMP-1')), respondWith(404), respondWith(401)));
      const sut = gatewayFor(upstream);
      const events: OperationsCallEvent[] = [];
      sut.addObserver({ callFinished: (event) => events.push(event) });

      await sut.getProcessDetail('IMP-1');
      await sut.getProcessDetail('IMP-2');
      await failureOf(sut.getProcessDetail('IMP-3'));

      expect(events.map(({ outcome, failure }) => [outcome, failure])).toEqual([
        ['success', null],
        ['not-found', null],
        ['failure', 'http-status'],
      ]);
    });
  });
});
