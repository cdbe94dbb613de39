import { Sandbox } from '../control/sandbox.js';
import { SandboxClock } from '../control/sandbox-clock.js';
import { demoSimulationOptions } from '../simulation/simulation-options.js';
import { startSandboxServer, type SandboxServer } from './sandbox.server.js';
import { statusOf } from '../testing/status-of.js';

const API_KEY = 'control-key-0123';
const NOW = Date.parse('2026-03-14T12:00:30Z');

/** The members the answers of these tests have, each optional: a test reads the ones it expects. */
interface AnswerBody {
  numero?: string;
  process?: { status: string; eta: string | null; events: Array<{ id: string }> };
  event?: { id: string; code: string; location: unknown };
  shipment?: { type: string; mode: string };
  faults?: { outage: string };
  now?: string;
  frozen?: boolean;
}

describe('the control API', () => {
  let server: SandboxServer;
  let clockMoves = 0;

  beforeEach(async () => {
    const clock = SandboxClock.frozenAt(new Date(NOW));
    clockMoves = 0;
    server = await startSandboxServer({
      apiKey: API_KEY,
      sandbox: new Sandbox(demoSimulationOptions(new Date(NOW)), clock),
      clock,
      onClockMoved: () => clockMoves++,
    });
  });

  afterEach(() => server.close());

  const call = async (method: string, path: string, body?: unknown, key = API_KEY) => {
    const response = await fetch(`${server.url}${path}`, {
      method,
      headers: { 'x-api-key': key, 'content-type': 'application/json' },
      ...(body !== undefined && { body: typeof body === 'string' ? body : JSON.stringify(body) }),
    });
    return {
      status: response.status,
      type: response.headers.get('content-type'),
      body: (await response.json()) as AnswerBody,
    };
  };

  const created = async (): Promise<string> =>
    (await call('POST', '/control/processes', { customer: 'acme', type: 'IMPORT', mode: 'SEA' })).body
      .numero ?? '';

  it('creates a process that the upstream API then serves', async () => {
    const answer = await call('POST', '/control/processes', {
      customer: 'acme',
      type: 'IMPORT',
      mode: 'SEA',
    });
    expect(answer.status).toBe(201);
    expect(answer.body.process).toEqual(
      expect.objectContaining({ numero: answer.body.numero, status: 'OPEN' }),
    );
    const detail = await call('GET', `/processes/${answer.body.numero ?? ''}`);
    expect(detail.status).toBe(200);
    expect(detail.body.shipment).toEqual(expect.objectContaining({ type: 'IMPORT', mode: 'SEA' }));
  });

  it('advances, sets the channel, moves the ETA, adds and retracts events and cancels', async () => {
    const numero = await created();
    expect((await call('POST', `/control/processes/${numero}/advance`)).body.process?.status).toBe('BOOKED');
    expect(
      (await call('POST', `/control/processes/${numero}/eta`, { eta: '2026-05-02' })).body.process?.eta,
    ).toBe('2026-05-02');
    const added = await call('POST', `/control/processes/${numero}/events`, {
      code: 'NOTE',
      description: 'Carga inspecionada',
      location: { code: 'BRSSZ', name: 'Santos' },
    });
    expect(added.status).toBe(201);
    expect(added.body.event).toEqual(
      expect.objectContaining({ code: 'NOTE', location: { code: 'BRSSZ', name: 'Santos' } }),
    );
    const addedId = added.body.event?.id ?? '';
    const retracted = await call('DELETE', `/control/processes/${numero}/events/${addedId}`);
    expect(retracted.body.process?.events.map((event) => event.id)).not.toContain(addedId);
    expect((await call('POST', `/control/processes/${numero}/cancel`)).body.process?.status).toBe(
      'CANCELLED',
    );
  });

  it.each([
    ['an unknown numero', 'POST', '/control/processes/IMP-2026-999999/advance', undefined, 404],
    [
      'an impossible move (a channel before the declaration)',
      'POST',
      'CREATED/customs',
      { channel: 'RED' },
      409,
    ],
    ['a channel not in the list', 'POST', 'CREATED/customs', { channel: 'PURPLE' }, 400],
    ['a member the call does not name', 'POST', 'CREATED/customs', { channel: 'RED', colour: 'x' }, 400],
    ['__proto__ as a member', 'POST', 'CREATED/customs', '{"channel":"RED","__proto__":{"x":1}}', 400],
    ['a body that is not JSON', 'POST', 'CREATED/eta', '{"eta":', 400],
    ['a date that is not one', 'POST', 'CREATED/eta', { eta: '2026-13-01' }, 400],
    ['an event code not in the list', 'POST', 'CREATED/events', { code: 'PARTY' }, 400],
    [
      'a control character in a description',
      'POST',
      'CREATED/events',
      { code: 'NOTE', description: 'a\u0000b' },
      400,
    ],
    [
      'an unknown customer',
      'POST',
      '/control/processes',
      { customer: 'nobody', type: 'IMPORT', mode: 'SEA' },
      400,
    ],
    ['an unknown route', 'POST', '/control/nothing', undefined, 404],
    ['a clock call with two actions', 'POST', '/control/clock', { freeze: true, resume: true }, 400],
    ['a duration that is not one', 'POST', '/control/clock', { advance: 'soon' }, 400],
    ['an unknown fault mode', 'POST', '/control/faults', { mode: 'gremlins' }, 400],
    ['a rate above 1', 'POST', '/control/faults', { mode: 'error', rate: 2 }, 400],
    ['a seed that is not whole', 'POST', '/control/reset', { seed: 1.5 }, 400],
  ])('answers %s with a problem', async (_why, method, path, body, status) => {
    const target = path.startsWith('CREATED')
      ? `/control/processes/${await created()}${path.slice(7)}`
      : path;
    const answer = await call(method, target, body);
    expect(answer.status).toBe(status);
    expect(answer.type).toBe('application/problem+json');
    expect(answer.body).toEqual(
      expect.objectContaining({ status, title: expect.any(String), detail: expect.any(String) }),
    );
  });

  it('refuses a call without the key', async () => {
    const answer = await call('GET', '/control/clock', undefined, 'wrong');
    expect(answer.status).toBe(401);
    expect(answer.type).toBe('application/problem+json');
  });

  it('moves the clock and says so', async () => {
    expect((await call('GET', '/control/clock')).body).toEqual({
      now: '2026-03-14T12:00:30.000Z',
      frozen: true,
    });
    expect((await call('POST', '/control/clock', { advance: 'PT6H' })).body.now).toBe(
      '2026-03-14T18:00:30.000Z',
    );
    expect(clockMoves).toBe(1);
    expect((await call('POST', '/control/clock', { resume: true })).body.frozen).toBe(false);
  });

  it('turns faults on for the upstream API only, and off again', async () => {
    expect((await call('POST', '/control/faults', { mode: 'unavailable' })).status).toBe(200);
    expect(await statusOf(`${server.url}/processes`, { headers: { 'x-api-key': API_KEY } })).toBe(503);
    expect((await call('GET', '/control/clock')).status).toBe(200);
    expect((await call('DELETE', '/control/faults')).body.faults?.outage).toBe('off');
    expect(await statusOf(`${server.url}/processes`, { headers: { 'x-api-key': API_KEY } })).toBe(200);
  });

  it('resets to a seed', async () => {
    const numero = await created();
    expect((await call('POST', '/control/reset', { seed: 7 })).body).toEqual({ seed: 7, processCount: 360 });
    expect((await call('GET', `/processes/${numero}`)).status).toBe(404);
  });
});
