import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize } from 'node:path';

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
};

/**
 * Serves a directory under `prefix` on 127.0.0.1, as another web server would host a copy of the
 * portal on an origin of its own.
 */
export async function serveStaticFiles(
  directory: string,
  prefix: string,
): Promise<{ origin: string; close: () => Promise<void> }> {
  const server: Server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://localhost').pathname;
    const relative = path.startsWith(prefix) ? path.slice(prefix.length) : null;
    const file =
      relative === null
        ? null
        : normalize(join(directory, relative === '/' || relative === '' ? 'index.html' : relative));
    if (file === null || !file.startsWith(directory)) {
      response.writeHead(404).end();
      return;
    }
    readFile(file).then(
      (content) =>
        response
          .writeHead(200, { 'Content-Type': CONTENT_TYPES[extname(file)] ?? 'application/octet-stream' })
          .end(content),
      () => response.writeHead(404).end(),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve()))),
  };
}
