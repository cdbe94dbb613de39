import { parseSandboxArgs } from './sandbox.args.js';

const NOW = new Date('2026-03-14T12:00:00Z');

describe(parseSandboxArgs.name, () => {
  it('serves the demo data on port 3100 by default, with the key from the environment', () => {
    const command = parseSandboxArgs([], { OPERATIONS_API_KEY: 'env-key' }, NOW);
    if (command.kind !== 'serve') throw new Error('expected serve');
    expect(command.server).toEqual(
      expect.objectContaining({ apiKey: 'env-key', port: 3100, host: '127.0.0.1', notify: null }),
    );
    expect(command.simulation).toEqual(
      expect.objectContaining({ seed: 20260314, processCount: 360, customerCount: 6 }),
    );
    expect(command.simulation.epoch.toISOString()).toBe('2025-10-15T00:00:00.000Z');
    expect(command.server.faults).toEqual(expect.objectContaining({ errorRate: 0, outage: 'off' }));
  });

  it('reads every flag, the command line winning over the environment', () => {
    const command = parseSandboxArgs(
      [
        '--port=0',
        '--api-key=flag-key',
        '--processes=1000000',
        '--customers=800',
        '--seed=7',
        '--epoch=2026-01-01T00:00:00Z',
        '--latency-ms=20',
        '--jitter-ms=5',
        '--error-rate=0.1',
        '--timeout-rate=0.05',
        '--outage=reset',
      ],
      { OPERATIONS_API_KEY: 'env-key' },
      NOW,
    );
    if (command.kind !== 'serve') throw new Error('expected serve');
    expect(command.server).toEqual(
      expect.objectContaining({
        apiKey: 'flag-key',
        port: 0,
        faults: expect.objectContaining({
          latencyMs: 20,
          jitterMs: 5,
          errorRate: 0.1,
          timeoutRate: 0.05,
          outage: 'reset',
        }),
      }),
    );
    expect(command.simulation).toEqual(
      expect.objectContaining({
        seed: 7,
        processCount: 1_000_000,
        customerCount: 800,
        epoch: new Date('2026-01-01T00:00:00Z'),
      }),
    );
  });

  it.each([
    ['no API key', [], {}],
    ['a port that is not a number', ['--port=x', '--api-key=k'], {}],
    ['a fractional process count', ['--processes=1.5', '--api-key=k'], {}],
    ['an unknown outage mode', ['--outage=sometimes', '--api-key=k'], {}],
    ['a bad epoch', ['--epoch=soon', '--api-key=k'], {}],
    ['an unknown flag', ['--frobnicate', '--api-key=k'], {}],
  ])('refuses %s', (_why, argv, env) => {
    expect(() => parseSandboxArgs(argv, env, NOW)).toThrow();
  });

  it('notifies the URL given, signing with the secret from the environment', () => {
    const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
    const command = parseSandboxArgs(
      ['--notify-url=http://127.0.0.1:3000/api/operations/notifications'],
      { OPERATIONS_API_KEY: 'k', OPERATIONS_NOTIFY_SECRET: secret, SANDBOX_PORT: '3200' },
      NOW,
    );
    if (command.kind !== 'serve') throw new Error('expected serve');
    expect(command.server.port).toBe(3200);
    expect(command.server.notify).toEqual({
      url: 'http://127.0.0.1:3000/api/operations/notifications',
      secret,
    });
  });

  it.each([
    ['no secret', {}],
    ['a secret without its prefix', { OPERATIONS_NOTIFY_SECRET: 'MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' }],
  ])('refuses a notify URL with %s', (_why, env) => {
    expect(() =>
      parseSandboxArgs(['--notify-url=http://127.0.0.1:3000/n'], { OPERATIONS_API_KEY: 'k', ...env }, NOW),
    ).toThrow(/OPERATIONS_NOTIFY_SECRET/);
  });

  it('asks for help', () => {
    expect(parseSandboxArgs(['--help'], {}, NOW)).toEqual({ kind: 'help' });
  });
});
