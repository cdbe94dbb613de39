import type { Request, Response } from 'express';
import { requestIdMiddleware, requestIdOf } from './request-id.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

function run(offered: string | string[] | undefined) {
  const request = { headers: offered === undefined ? {} : { 'x-request-id': offered } } as unknown as Request;
  const headers: Record<string, string> = {};
  const response = {
    setHeader: (name: string, value: string) => (headers[name] = value),
  } as unknown as Response;
  let nextCalls = 0;
  requestIdMiddleware(request, response, () => nextCalls++);
  return { requestId: requestIdOf(request), header: headers['X-Request-Id'], nextCalls };
}

describe(requestIdMiddleware.name, () => {
  it.each(['b8e1-4c2a', 'A.b_c-9', 'x', 'r'.repeat(128)])('keeps the sane id %j', (offered) => {
    expect(run(offered)).toEqual({ requestId: offered, header: offered, nextCalls: 1 });
  });

  it.each([
    ['missing', undefined],
    ['empty', ''],
    ['129 characters long', 'r'.repeat(129)],
    ['holding a space', 'abc def'],
    ['holding a slash', 'abc/def'],
    ['holding a newline', 'abc\ndef'],
    ['holding non-ASCII', 'ação'],
    ['holding a script', '<script>'],
    ['repeated', ['a', 'b']],
  ])('replaces an id that is %s with a new UUID', (_case, offered) => {
    const { requestId, header, nextCalls } = run(offered);

    expect(requestId).toMatch(UUID);
    expect(header).toBe(requestId);
    expect(nextCalls).toBe(1);
  });

  it('makes a different id for each request', () => {
    expect(run(undefined).requestId).not.toBe(run(undefined).requestId);
  });
});

describe(requestIdOf.name, () => {
  it('says "unknown" for a request the middleware never saw', () => {
    expect(requestIdOf({ headers: {} } as Request)).toBe('unknown');
  });
});
