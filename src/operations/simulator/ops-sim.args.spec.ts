import { parseOpsSimArgs } from './ops-sim.args.js';

const NOW = new Date('2026-03-14T12:00:00Z');

describe(parseOpsSimArgs.name, () => {
  it('serves the demo data on port 4010 by default, with the key from the environment', () => {
    const command = parseOpsSimArgs([], { OPS_SIM_API_KEY: 'env-key' }, NOW);
    if (command.kind !== 'serve') throw new Error('expected serve');
    expect(command.server).toEqual(
      expect.objectContaining({ apiKey: 'env-key', port: 4010, host: '127.0.0.1' }),
    );
    expect(command.simulation).toEqual(
      expect.objectContaining({ seed: 20260314, processCount: 360, customerCount: 6 }),
    );
    expect(command.simulation.epoch.toISOString()).toBe('2025-10-15T00:00:00.000Z');
    expect(command.server.faults).toEqual(expect.objectContaining({ errorRate: 0, outage: 'off' }));
  });

  it('reads every flag, the command line winning over the environment', () => {
    const command = parseOpsSimArgs(
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
      { OPS_SIM_API_KEY: 'env-key' },
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
    expect(() => parseOpsSimArgs(argv, env, NOW)).toThrow();
  });

  it('asks for help', () => {
    expect(parseOpsSimArgs(['--help'], {}, NOW)).toEqual({ kind: 'help' });
  });
});
