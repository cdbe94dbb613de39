import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import type { Express, Request, Response } from 'express';
import { ServiceExpressAdapter } from './http-server-settings.js';
import { statusOf } from '../../testing/status-of.js';

describe(`${ServiceExpressAdapter.name}'s HTTP server`, () => {
  const adapter = new ServiceExpressAdapter();
  adapter.initHttpServer();
  const app = adapter.getInstance<Express>();
  const server = adapter.getHttpServer() as Server;
  let url: string;

  /** The prototypes of each request and response as Node hands them over, before Express sees them. */
  const arrivals: Array<{ request: object | null; response: object | null }> = [];
  server.prependListener('request', (request, response) => {
    arrivals.push({ request: Object.getPrototypeOf(request), response: Object.getPrototypeOf(response) });
  });

  app.get('/echo', (request: Request, response: Response) => {
    response
      .status(202)
      .json({ host: request.get('host'), sameApp: request.app === app, query: request.query });
  });

  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  it("creates requests and responses with Express's prototypes, so Express has none to swap", async () => {
    await statusOf(`${url}/echo`);
    await statusOf(`${url}/echo`);

    expect(arrivals).toHaveLength(2);
    for (const arrival of arrivals) {
      expect(arrival.request).toBe(app.request);
      expect(arrival.response).toBe(app.response);
    }
  });

  it("keeps Express's request and response helpers", async () => {
    const response = await fetch(`${url}/echo?page=2`);

    expect(response.status).toBe(202);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(await response.json()).toEqual({ host: new URL(url).host, sameApp: true, query: { page: '2' } });
  });
});
