import { isDatabaseUnavailable } from './database-unavailable.js';

function withCode(code: string, message = 'failed'): Error {
  return Object.assign(new Error(message), { code });
}

describe(isDatabaseUnavailable.name, () => {
  it.each([
    ['a terminated backend', withCode('57P01', 'terminating connection due to administrator command')],
    ['a server shutting down', withCode('57P02')],
    ['a server starting up', withCode('57P03', 'the database system is starting up')],
    ['too many connections', withCode('53300')],
    ['a statement timeout', withCode('57014', 'canceling statement due to statement timeout')],
    ['a lock timeout', withCode('55P03')],
    ['a connection exception', withCode('08006')],
    ['a refused connection', withCode('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:5432')],
    ['a reset connection', withCode('ECONNRESET')],
    ['a lost connection', new Error('Connection terminated unexpectedly')],
    ['a connect timeout', new Error('Connection terminated due to connection timeout')],
    ['a silent server', new Error('Query read timeout')],
    ['a pool that waited too long', new Error('timeout exceeded when trying to connect')],
    ['a wrapped outage', new Error('Failed query: select 1', { cause: withCode('57P01') })],
  ])('is true for %s', (_case, error) => {
    expect(isDatabaseUnavailable(error)).toBe(true);
  });

  it.each([
    ['a syntax error', withCode('42601')],
    ['a unique violation', withCode('23505')],
    ['invalid text', withCode('22021', 'invalid byte sequence for encoding "UTF8": 0x00')],
    ['a wrapped bug', new Error('Failed query', { cause: withCode('42P01') })],
    ['a plain error', new Error('boom')],
    ['something that is not an error', { code: '57P01' }],
    ['nothing', undefined],
  ])('is false for %s', (_case, error) => {
    expect(isDatabaseUnavailable(error)).toBe(false);
  });
});
