import type { IncomingMessage, ServerResponse } from 'node:http';
import { ControlError, invalid } from '../control/control-error.js';
import type { Sandbox } from '../control/sandbox.js';
import { parseDuration, type SandboxClock } from '../control/sandbox-clock.js';
import {
  CUSTOMS_CHANNELS,
  FOLLOW_UP_CODES,
  PROCESS_TYPES,
  TRANSPORT_MODES,
} from '../upstream/upstream-api.js';
import { ControlBody } from './control-body.js';
import { BodyError, readBody } from './json-body.js';
import type { SimulatorFaults } from './sandbox.server.js';

/** What the control API steers. */
export interface ControlContext {
  sandbox: Sandbox;
  clock: SandboxClock;
  faults: {
    /** Replaces the faults; they end by themselves after `seconds` when given. */
    set(faults: Partial<SimulatorFaults>, seconds?: number): SimulatorFaults;
    clear(): SimulatorFaults;
  };
  /** The clock moved: tell the service what that changed. */
  clockMoved(): void;
}

interface ControlRequest {
  method: string;
  /** The path's segments after `/control/`, decoded. */
  segments: string[];
  bodyOf: (allowed: readonly string[]) => Promise<ControlBody>;
}

interface ControlAnswer {
  status: number;
  body: unknown;
}

const DATE = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;
const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/i;
const FAULT_MODES = ['timeout', 'error', 'redirect', 'oversized', 'garbage', 'reset', 'unavailable'] as const;
type FaultMode = (typeof FAULT_MODES)[number];

const RATE_OF: Record<FaultMode, keyof SimulatorFaults | null> = {
  timeout: 'timeoutRate',
  error: 'errorRate',
  redirect: 'redirectRate',
  oversized: 'oversizedRate',
  garbage: 'garbageRate',
  reset: null,
  unavailable: null,
};

/**
 * `/control/…`: what a QA suite or a demo does to the operations system. Answers are JSON, errors
 * RFC 9457 problem details; every change is heard by the sandbox's listeners (the notifier).
 */
export async function handleControl(
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  context: ControlContext & { authorized: boolean },
): Promise<void> {
  if (!context.authorized) {
    problem(res, 401, 'A valid X-Api-Key header is required');
    return;
  }
  let segments: string[];
  try {
    segments = url.pathname.slice('/control/'.length).split('/').map(decodeURIComponent);
  } catch {
    problem(res, 400, 'The path is not valid percent-encoding');
    return;
  }
  const bodyOf = async (allowed: readonly string[]): Promise<ControlBody> =>
    ControlBody.of(await readBody(req), allowed);
  try {
    const answer = route({ method: req.method ?? 'GET', segments, bodyOf }, context);
    if (answer === null) {
      problem(res, 404, `No control route ${req.method ?? ''} ${url.pathname}`);
      return;
    }
    const { status, body } = await answer;
    const text = JSON.stringify(body);
    res.writeHead(status, {
      'Content-Type': 'application/json; charset=utf-8',
      'Content-Length': Buffer.byteLength(text),
    });
    res.end(text);
  } catch (error) {
    if (error instanceof ControlError) {
      problem(res, error.status, error.message, error.field);
    } else if (error instanceof BodyError) {
      problem(res, 400, error.message, 'body');
    } else {
      throw error;
    }
  }
}

function route(request: ControlRequest, context: ControlContext): Promise<ControlAnswer> | null {
  const { method, segments } = request;
  const [resource, numero, action, id] = segments;
  if (resource === 'processes' && segments.length === 1 && method === 'POST')
    return createProcess(request, context);
  if (resource === 'processes' && numero !== undefined && action !== undefined) {
    return processRoute(request, context, numero, action, id);
  }
  if (resource === 'clock' && segments.length === 1) {
    if (method === 'GET') return Promise.resolve({ status: 200, body: context.clock.state() });
    if (method === 'POST') return moveClock(request, context);
  }
  if (resource === 'faults' && segments.length === 1) {
    if (method === 'POST') return setFaults(request, context);
    if (method === 'DELETE')
      return Promise.resolve({ status: 200, body: { faults: context.faults.clear() } });
  }
  if (resource === 'reset' && segments.length === 1 && method === 'POST') return reset(request, context);
  return null;
}

async function createProcess(request: ControlRequest, { sandbox }: ControlContext): Promise<ControlAnswer> {
  const body = await request.bodyOf(['customer', 'type', 'mode']);
  const process = sandbox.createProcess({
    customer: body.string('customer', /^[A-Za-z0-9._-]{1,64}$/, 'a customer id'),
    type: body.oneOf('type', PROCESS_TYPES),
    mode: body.oneOf('mode', TRANSPORT_MODES),
  });
  return { status: 201, body: { numero: process.numero, process } };
}

function processRoute(
  request: ControlRequest,
  { sandbox }: ControlContext,
  numero: string,
  action: string,
  id: string | undefined,
): Promise<ControlAnswer> | null {
  const { method, segments } = request;
  const changed = async (
    change: (body: ControlBody) => ReturnType<Sandbox['advance']>,
    allowed: string[] = [],
  ) => {
    const process = change(await request.bodyOf(allowed));
    return { status: 200, body: { numero: process.numero, process } };
  };
  if (action === 'events' && segments.length === 4 && method === 'DELETE' && id !== undefined) {
    return changed(() => sandbox.retractEvent(numero, id));
  }
  if (segments.length !== 3 || method !== 'POST') return null;
  switch (action) {
    case 'advance':
      return changed(() => sandbox.advance(numero));
    case 'cancel':
      return changed(() => sandbox.cancel(numero));
    case 'customs':
      return changed(
        (body) => sandbox.setCustomsChannel(numero, body.oneOf('channel', CUSTOMS_CHANNELS)),
        ['channel'],
      );
    case 'eta':
      return changed(
        (body) => sandbox.moveEta(numero, body.string('eta', DATE, 'a date (YYYY-MM-DD)')),
        ['eta'],
      );
    case 'events':
      return addEvent(request, sandbox, numero);
    default:
      return null;
  }
}

async function addEvent(request: ControlRequest, sandbox: Sandbox, numero: string): Promise<ControlAnswer> {
  const body = await request.bodyOf(['code', 'occurredAt', 'location', 'description']);
  const location = body.optionalObject('location')?.only('location', ['code', 'name']);
  const { event, process } = sandbox.addEvent(numero, {
    code: body.oneOf('code', FOLLOW_UP_CODES),
    occurredAt: body.optionalString('occurredAt', INSTANT, 'an RFC 3339 instant with an offset'),
    description: body.optionalText('description', 500),
    location:
      location === undefined || location === null
        ? location
        : {
            code: location.string('code', /^[A-Z]{2}[A-Z0-9]{3}$/, 'a UN/LOCODE (BRSSZ)'),
            name: location.text('name', 100),
          },
  });
  return { status: 201, body: { numero: process.numero, event, process } };
}

async function moveClock(request: ControlRequest, context: ControlContext): Promise<ControlAnswer> {
  const body = await request.bodyOf(['freeze', 'advance', 'resume']);
  const given = ['freeze', 'advance', 'resume'].filter((name) => body.has(name));
  if (given.length !== 1) throw invalid('body', 'give exactly one of freeze, advance and resume');
  const { clock } = context;
  if (body.literalTrue('freeze')) clock.freeze();
  else if (body.literalTrue('resume')) clock.resume();
  else {
    const text = body.string('advance', /^P/, 'an ISO 8601 duration (PT6H, P2D)');
    const milliseconds = parseDuration(text);
    if (Number.isNaN(milliseconds))
      throw invalid(
        'advance',
        'advance must be an ISO 8601 duration in days, hours, minutes and seconds (PT6H, P2D)',
      );
    if (milliseconds > 3650 * 86_400_000) throw invalid('advance', 'advance must be at most ten years');
    clock.advance(milliseconds);
    context.clockMoved();
  }
  return { status: 200, body: clock.state() };
}

async function setFaults(request: ControlRequest, { faults }: ControlContext): Promise<ControlAnswer> {
  const body = await request.bodyOf(['mode', 'rate', 'seconds']);
  const mode = body.oneOf('mode', FAULT_MODES);
  const rate = body.optionalNumber('rate', 0, 1) ?? 1;
  const seconds = body.optionalNumber('seconds', 1, 86_400);
  const rateField = RATE_OF[mode];
  const partial: Partial<SimulatorFaults> =
    rateField === null ? { outage: mode as 'reset' | 'unavailable' } : { [rateField]: rate };
  return { status: 200, body: { faults: faults.set(partial, seconds) } };
}

async function reset(request: ControlRequest, { sandbox, faults }: ControlContext): Promise<ControlAnswer> {
  const body = await request.bodyOf(['seed']);
  const seed = body.optionalNumber('seed', 0, 4_294_967_295);
  if (seed !== undefined && !Number.isInteger(seed)) throw invalid('seed', 'seed must be a whole number');
  sandbox.reset(seed);
  faults.clear();
  return { status: 200, body: { seed: sandbox.seed, processCount: sandbox.processCount } };
}

function problem(res: ServerResponse, status: number, detail: string, field?: string): void {
  const titles: Record<number, string> = {
    400: 'Bad Request',
    401: 'Unauthorized',
    404: 'Not Found',
    409: 'Conflict',
  };
  const body = {
    type: 'about:blank',
    title: titles[status] ?? 'Error',
    status,
    detail,
    ...(field !== undefined && { errors: [{ field, message: detail }] }),
  };
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'Content-Type': 'application/problem+json',
    'Content-Length': Buffer.byteLength(text),
  });
  res.end(text);
}
