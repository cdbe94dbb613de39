import type { Response } from 'express';
import { ServiceExpressAdapter } from './http-server-settings.js';

describe(ServiceExpressAdapter.name, () => {
  const adapter = new ServiceExpressAdapter();

  /** A response to a request with these headers that records what the adapter does with it. */
  function recordingResponse(
    requestHeaders: Record<string, string> = {},
    preset: Record<string, string> = {},
  ) {
    const calls: { send?: unknown; json?: unknown; end?: unknown } = {};
    const headers = new Map(Object.entries(preset).map(([name, value]) => [name.toLowerCase(), value]));
    const response = {
      statusCode: 200,
      req: { headers: requestHeaders },
      status: (code: number) => ((response.statusCode = code), response),
      send: (body: unknown) => ((calls.send = body), response),
      json: (body: unknown) => ((calls.json = body), response),
      end: (body: unknown) => ((calls.end = body), response),
      hasHeader: (name: string) => headers.has(name.toLowerCase()),
      getHeader: (name: string) => headers.get(name.toLowerCase()),
      setHeader: (name: string, value: unknown) => headers.set(name.toLowerCase(), String(value)),
    };
    return { response: response as unknown as Response, calls, headers };
  }

  const body = Buffer.from('{"data":["ação"]}');

  it('ends a plain request with the bytes as they are, their length and the status given', () => {
    const { response, calls, headers } = recordingResponse(
      {},
      { 'Content-Type': 'application/json; charset=utf-8' },
    );

    adapter.reply(response, body, 201);

    expect(calls).toEqual({ end: body });
    expect(response.statusCode).toBe(201);
    expect(headers.get('content-length')).toBe(String(body.length));
    expect(headers.get('content-type')).toBe('application/json; charset=utf-8');
  });

  it('labels bytes without a type as Express would', () => {
    const { response, headers } = recordingResponse();

    adapter.reply(response, body);

    expect(headers.get('content-type')).toBe('application/octet-stream');
  });

  it.each<Record<string, string>>([
    { 'if-none-match': '*' },
    { 'if-modified-since': 'Tue, 24 Nov 2026 10:00:00 GMT' },
  ])('leaves a conditional request (%o) to Express, which answers it', (requestHeaders) => {
    const { response, calls } = recordingResponse(requestHeaders);

    adapter.reply(response, body);

    expect(calls).toEqual({ send: body });
  });

  it('leaves a status without a body to Express, which strips it', () => {
    const { response, calls } = recordingResponse();

    adapter.reply(response, Buffer.alloc(0), 304);

    expect(calls).toEqual({ send: Buffer.alloc(0) });
  });

  it('still serialises any other object as JSON', () => {
    const { response, calls } = recordingResponse();

    adapter.reply(response, { data: [] });

    expect(calls).toEqual({ json: { data: [] } });
  });
});
