import express from 'express';
import request from 'supertest';
import { responseCompression } from './response-compression.js';

describe(responseCompression.name, () => {
  const page = JSON.stringify({ data: Array.from({ length: 100 }, (_, i) => ({ numero: `IMP-${i}` })) });
  const app = express();
  app.use(responseCompression());
  app.get('/page', (_request, response) => void response.type('application/json').send(page));
  app.get('/small', (_request, response) => void response.json({ ok: true }));
  app.get('/stream', (_request, response) => {
    response.type('text/event-stream').write(`data: ${page}\n\n`);
    response.end();
  });

  it('gzips a large body for a client that accepts it, and says it varies by Accept-Encoding', async () => {
    const response = await request(app).get('/page').set('Accept-Encoding', 'gzip');

    expect(response.headers['content-encoding']).toBe('gzip');
    expect(response.headers.vary).toBe('Accept-Encoding');
    // superagent decompresses what it receives.
    expect(response.text).toBe(page);
  });

  it('sends identity to a client that accepts no encoding, with the same Vary', async () => {
    const response = await request(app).get('/page').set('Accept-Encoding', '');
    const bare = await request(app).get('/page').unset('Accept-Encoding');

    for (const answer of [response, bare]) {
      expect(answer.headers['content-encoding']).toBeUndefined();
      expect(answer.headers.vary).toBe('Accept-Encoding');
      expect(answer.text).toBe(page);
    }
  });

  it('leaves bodies under 1 KiB and event streams uncompressed', async () => {
    const small = await request(app).get('/small').set('Accept-Encoding', 'gzip');
    const stream = await request(app).get('/stream').set('Accept-Encoding', 'gzip');

    expect(small.headers['content-encoding']).toBeUndefined();
    expect(stream.headers['content-encoding']).toBeUndefined();
    expect(stream.text).toBe(`data: ${page}\n\n`);
  });
});
