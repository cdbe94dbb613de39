import { controlCallOf } from './cli.js';

describe(controlCallOf.name, () => {
  it.each([
    [
      ['create', 'acme', 'IMPORT', 'SEA'],
      { method: 'POST', path: '/control/processes', body: { customer: 'acme', type: 'IMPORT', mode: 'SEA' } },
    ],
    [['advance', 'IMP-2026-000001'], { method: 'POST', path: '/control/processes/IMP-2026-000001/advance' }],
    [
      ['customs', 'IMP-2026-000001', 'RED'],
      { method: 'POST', path: '/control/processes/IMP-2026-000001/customs', body: { channel: 'RED' } },
    ],
    [
      ['eta', 'IMP-2026-000001', '2026-12-01'],
      { method: 'POST', path: '/control/processes/IMP-2026-000001/eta', body: { eta: '2026-12-01' } },
    ],
    [
      ['event', 'X-1', 'NOTE', 'Aguardando', 'documentos'],
      {
        method: 'POST',
        path: '/control/processes/X-1/events',
        body: { code: 'NOTE', description: 'Aguardando documentos' },
      },
    ],
    [
      ['retract', 'X-1', 'evt_x-1-c01'],
      { method: 'DELETE', path: '/control/processes/X-1/events/evt_x-1-c01' },
    ],
    [['cancel', 'X-1'], { method: 'POST', path: '/control/processes/X-1/cancel' }],
    [['clock'], { method: 'GET', path: '/control/clock' }],
    [['clock', 'advance', 'PT6H'], { method: 'POST', path: '/control/clock', body: { advance: 'PT6H' } }],
    [['clock', 'freeze'], { method: 'POST', path: '/control/clock', body: { freeze: true } }],
    [
      ['faults', 'error', '0.5', '30'],
      { method: 'POST', path: '/control/faults', body: { mode: 'error', rate: 0.5, seconds: 30 } },
    ],
    [['faults', 'off'], { method: 'DELETE', path: '/control/faults' }],
    [['reset', '7'], { method: 'POST', path: '/control/reset', body: { seed: 7 } }],
  ])('%j', (argv, call) => {
    expect(controlCallOf(argv)).toEqual(call);
  });

  it.each([[[]], [['frobnicate']], [['customs', 'X-1']], [['clock', 'backwards']]])('refuses %j', (argv) => {
    expect(() => controlCallOf(argv)).toThrow(RangeError);
  });
});
