import type { IncomingMessage } from 'node:http';

const MAX_BODY_BYTES = 16 * 1024;

/** A request body that could not be read as JSON. */
export class BodyError extends Error {
  override readonly name = 'BodyError';
}

/** The request's JSON body (undefined when empty), at most 16 KiB. */
export function readBody(req: IncomingMessage): Promise<unknown> {
  return new Promise((resolve, reject) => {
    let size = 0;
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        reject(new BodyError(`the body must be at most ${MAX_BODY_BYTES} bytes`));
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      if (text.trim() === '') {
        resolve(undefined);
        return;
      }
      try {
        resolve(JSON.parse(text));
      } catch {
        reject(new BodyError('the body is not valid JSON'));
      }
    });
    req.on('error', reject);
  });
}
