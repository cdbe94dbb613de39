import { EventEmitter } from 'node:events';
import { jest } from '@jest/globals';
import { SpanKind, SpanStatusCode, type Span, type SpanOptions, type Tracer } from '@opentelemetry/api';
import type { Request, Response } from 'express';
import { serverSpanMiddleware } from './server-span.middleware.js';

/** A span that remembers what was done to it. */
function aRecordedSpan() {
  const recorded = {
    attributes: {} as Record<string, unknown>,
    name: '',
    status: undefined as unknown,
    ended: 0,
  };
  const span = {
    setAttribute: (key: string, value: unknown) => void (recorded.attributes[key] = value),
    updateName: (name: string) => void (recorded.name = name),
    setStatus: (status: unknown) => void (recorded.status = status),
    end: () => void recorded.ended++,
    spanContext: () => ({ traceId: 'a'.repeat(32), spanId: 'b'.repeat(16), traceFlags: 1 }),
    isRecording: () => true,
  } as unknown as Span;
  return { span, recorded };
}

function aTracer(span: Span) {
  const started: Array<{ name: string; options: SpanOptions | undefined }> = [];
  const tracer = {
    startSpan: (name: string, options?: SpanOptions) => {
      started.push({ name, options });
      return span;
    },
  } as unknown as Tracer;
  return { tracer, started };
}

function aRequest(overrides: Partial<Request> = {}): Request {
  return {
    method: 'GET',
    protocol: 'http',
    path: '/api/processes/IMP-1',
    hostname: 'api.example.com',
    httpVersion: '1.1',
    ip: '10.0.0.7',
    headers: { 'user-agent': 'portal/1.0' },
    baseUrl: '',
    ...overrides,
  } as Request;
}

const aResponse = (statusCode: number, finished = true) =>
  Object.assign(new EventEmitter(), { statusCode, writableFinished: finished }) as unknown as Response;

describe(serverSpanMiddleware.name, () => {
  it('starts a server span with the request’s attributes, then hands the request on', () => {
    const { span } = aRecordedSpan();
    const { tracer, started } = aTracer(span);
    const next = jest.fn();

    serverSpanMiddleware(tracer)(aRequest(), aResponse(200), next);

    expect(started).toEqual([
      {
        name: 'GET',
        options: {
          kind: SpanKind.SERVER,
          attributes: {
            'http.request.method': 'GET',
            'url.scheme': 'http',
            'url.path': '/api/processes/IMP-1',
            'server.address': 'api.example.com',
            'network.protocol.version': '1.1',
            'client.address': '10.0.0.7',
            'user_agent.original': 'portal/1.0',
          },
        },
      },
    ]);
    // The span being current for what follows needs the SDK's context manager: the tracing e2e
    // spec shows the statements and calls under it.
    expect(next).toHaveBeenCalledTimes(1);
  });

  it('names the span by the route that served it and records the status when the response closes', () => {
    const { span, recorded } = aRecordedSpan();
    const request = aRequest({ route: { path: '/:numero' }, baseUrl: '/api/processes' } as Partial<Request>);
    const response = aResponse(200);

    serverSpanMiddleware(aTracer(span).tracer)(request, response, () => undefined);
    expect(recorded.ended).toBe(0);
    response.emit('close');

    expect(recorded).toEqual({
      attributes: { 'http.route': '/api/processes/:numero', 'http.response.status_code': 200 },
      name: 'GET /api/processes/:numero',
      status: undefined,
      ended: 1,
    });
  });

  it('keeps the method alone as the name of a request no route matched, and marks a 5xx as an error', () => {
    const { span, recorded } = aRecordedSpan();
    const response = aResponse(503);

    serverSpanMiddleware(aTracer(span).tracer)(aRequest(), response, () => undefined);
    response.emit('close');
    response.emit('close');

    expect(recorded).toEqual({
      attributes: { 'http.response.status_code': 503 },
      name: '',
      status: { code: SpanStatusCode.ERROR },
      ended: 1,
    });
  });
});
