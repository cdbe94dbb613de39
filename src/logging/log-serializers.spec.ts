import { redactUrl, serializeError } from './log-serializers.js';

/** A token as Node's jsonwebtoken writes them: header, claims, signature. */
const JWT =
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJ1c2VyLTEiLCJpYXQiOjE3NzI0MDAwMDB9.c2lnbmF0dXJlLWJ5dGVzLWhlcmU';

describe('log serializers', () => {
  describe(redactUrl.name, () => {
    it.each([
      ['/api/processes?page=2&pageSize=5', '/api/processes?page=2&pageSize=5'],
      ['/api/processes?access_token=abc.def.ghi&page=1', '/api/processes?access_token=[Redacted]&page=1'],
      [
        '/x?Password=hunter2&apiKey=k&X-Api-Key=k2',
        '/x?Password=[Redacted]&apiKey=[Redacted]&X-Api-Key=[Redacted]',
      ],
      ['/x?%74oken=abc', '/x?%74oken=[Redacted]'],
      ['/x?flag', '/x?flag'],
      ['/api/processes/IMP-1', '/api/processes/IMP-1'],
      ...[
        'jwt',
        'bearer',
        'pass',
        'passwd',
        'pwd',
        'credentials',
        'code',
        'sig',
        'client_secret',
        'id_token',
      ].map((name): [string, string] => [`/x?${name}=v&page=1`, `/x?${name}=[Redacted]&page=1`]),
      ['/x?codename=v&status=OPEN', '/x?codename=v&status=OPEN'],
      [`/x/${JWT}/y`, '/x/[Redacted]/y'],
      [`/x?next=${JWT}`, '/x?next=[Redacted]'],
      [`/api/processes/${JWT.slice(0, 40)}`, `/api/processes/${JWT.slice(0, 40)}`],
    ])('turns %s into %s', (url, expected) => {
      expect(redactUrl(url)).toBe(expected);
    });
  });

  describe(serializeError.name, () => {
    it('keeps type, messages of the cause chain, the first code in it and stack, and nothing else', () => {
      const upstream = Object.assign(new Error('connect ECONNREFUSED'), {
        code: 'ECONNREFUSED',
        config: { headers: { 'X-Api-Key': 'the-api-key' } },
      });
      const error = new Error('Operations system call failed', { cause: upstream });
      const serialized = serializeError(error) as Record<string, unknown>;

      expect(serialized).toEqual({
        type: 'Error',
        message: 'Error: Operations system call failed; caused by: Error: connect ECONNREFUSED',
        code: 'ECONNREFUSED',
        stack: error.stack,
      });
      expect(JSON.stringify(serializeError(upstream))).not.toContain('the-api-key');
      expect(serializeError(upstream)).toMatchObject({ code: 'ECONNREFUSED' });
    });

    it('leaves anything that is not an error as it is', () => {
      expect(serializeError('text')).toBe('text');
    });
  });
});
