import type { Response } from 'express';
import { ServiceExpressAdapter } from './http-server-settings.js';

describe(ServiceExpressAdapter.name, () => {
  const adapter = new ServiceExpressAdapter();

  /** A response that records what the adapter sends through it. */
  function recordingResponse() {
    const calls: { status?: number; send?: unknown; json?: unknown } = {};
    const response = {
      status: (code: number) => ((calls.status = code), response),
      send: (body: unknown) => ((calls.send = body), response),
      json: (body: unknown) => ((calls.json = body), response),
      getHeader: () => 'application/json; charset=utf-8',
    };
    return { response: response as unknown as Response, calls };
  }

  it('sends a Buffer as the bytes it holds, with the status given', () => {
    const { response, calls } = recordingResponse();
    const body = Buffer.from('{"data":[]}');

    adapter.reply(response, body, 201);

    expect(calls).toEqual({ status: 201, send: body });
  });

  it('still serialises any other object as JSON', () => {
    const { response, calls } = recordingResponse();

    adapter.reply(response, { data: [] });

    expect(calls).toEqual({ json: { data: [] } });
  });
});
