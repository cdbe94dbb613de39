import { jest } from '@jest/globals';
import { Logger } from '@nestjs/common';
import {
  OperationsGateway,
  OperationsUnavailableError,
  type OperationsAttempt,
} from '../operations.gateway.js';
import type {
  ChangedProcessesPage,
  ChangedProcessesQuery,
  OperationsProcessDetail,
} from '../operations.types.js';
import { parseProcessDetail } from '../http/operations-payload.js';
import type {
  OperationsAttemptEvent,
  OperationsCallEvent,
  OperationsCircuitState,
} from './operations-resilience.js';
import {
  ResilientOperationsGateway,
  defaultResilienceOptions,
  type OperationsResilienceOptions,
} from './resilient-operations.gateway.js';
import { UpstreamAttemptError } from './upstream-attempt.error.js';

type Answer = (attempt: OperationsAttempt) => Promise<unknown>;

/** An adapter whose every attempt runs the answer the test sets, and is recorded. */
class ScriptedAdapter extends OperationsGateway {
  attempts: OperationsAttempt[] = [];
  private answers: Answer[] = [];

  /** Answers with each in turn, the last one from then on. */
  answer(...answers: Answer[]): this {
    this.answers = answers;
    return this;
  }

  getProcessDetail(_numero: string, attempt?: OperationsAttempt): Promise<OperationsProcessDetail | null> {
    return this.next(attempt) as Promise<OperationsProcessDetail | null>;
  }

  listChangedProcesses(
    _query: ChangedProcessesQuery,
    attempt?: OperationsAttempt,
  ): Promise<ChangedProcessesPage> {
    return this.next(attempt) as Promise<ChangedProcessesPage>;
  }

  private next(attempt: OperationsAttempt | undefined): Promise<unknown> {
    if (attempt === undefined) throw new Error('called without an attempt');
    this.attempts.push(attempt);
    const answer = this.answers[Math.min(this.attempts.length - 1, this.answers.length - 1)];
    if (answer === undefined) throw new Error('no answer set');
    return answer(attempt);
  }
}

const PAGE: ChangedProcessesPage = { items: [], nextCursor: null };
const ok =
  (value: unknown = PAGE): Answer =>
  () =>
    Promise.resolve(value);
const fails =
  (error: Error): Answer =>
  () =>
    Promise.reject(error);
const transient = () =>
  new UpstreamAttemptError('Operations system answered 503', {
    kind: 'http-status',
    transient: true,
    upstreamFault: true,
  });
const clientError = () =>
  new UpstreamAttemptError('Operations system answered 400', {
    kind: 'http-status',
    transient: false,
    upstreamFault: false,
  });
/** What the HTTP adapter's payload parser does with an answer of the wrong shape. */
const garbage: Answer = () => Promise.resolve(parseProcessDetail({ numero: 42 }));
/** Never settles on its own; settles as a timeout when the attempt is aborted. */
const hangs: Answer = ({ signal }) =>
  new Promise((_resolve, reject) =>
    signal.addEventListener('abort', () => reject(UpstreamAttemptError.timeout())),
  );

function gatewayOver(inner: ScriptedAdapter, options: Partial<OperationsResilienceOptions> = {}) {
  return new ResilientOperationsGateway('scripted', inner, {
    ...defaultResilienceOptions(200),
    retryInitialDelayMs: 5,
    retryMaxDelayMs: 10,
    ...options,
  });
}

const list = (sut: OperationsGateway) =>
  sut.listChangedProcesses({ updatedSince: null, cursor: null, limit: 10 });

async function failureOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to fail');
}

describe(ResilientOperationsGateway.name, () => {
  beforeAll(() => {
    Logger.overrideLogger(false);
  });

  it('passes the adapter answer through, null included', async () => {
    const inner = new ScriptedAdapter().answer(ok(PAGE), ok(null));
    const sut = gatewayOver(inner);

    await expect(list(sut)).resolves.toEqual(PAGE);
    await expect(sut.getProcessDetail('IMP-1')).resolves.toBeNull();
    expect(inner.attempts).toHaveLength(2);
    expect(sut.adapter).toBe('scripted');
  });

  describe('circuit breaker', () => {
    afterEach(() => jest.useRealTimers());

    it('opens after the configured count of consecutive faults', async () => {
      const inner = new ScriptedAdapter().answer(fails(transient()));
      const sut = gatewayOver(inner, { breakerThreshold: 3, maxRetries: 0 });
      const states: OperationsCircuitState[] = [];
      sut.addObserver({ circuitStateChanged: (state) => states.push(state) });

      await failureOf(list(sut));
      await failureOf(list(sut));
      expect(sut.circuitState).toBe('closed');
      await failureOf(list(sut));

      expect(sut.circuitState).toBe('open');
      expect(states).toEqual(['open']);
    });

    it('rejects without calling the adapter while open, then lets one trial through', async () => {
      jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'] });
      const inner = new ScriptedAdapter().answer(fails(transient()));
      const sut = gatewayOver(inner, { breakerThreshold: 2, maxRetries: 0, halfOpenAfterMs: 100 });
      await failureOf(list(sut));
      await failureOf(list(sut));
      expect(inner.attempts).toHaveLength(2);

      for (let call = 0; call < 5; call += 1) {
        const error = await failureOf(sut.getProcessDetail('IMP-1'));
        expect(error).toBeInstanceOf(OperationsUnavailableError);
        expect((error as Error).message).toBe('Operations system circuit is open');
      }
      expect(inner.attempts).toHaveLength(2);

      inner.answer(ok());
      jest.advanceTimersByTime(150);
      await expect(list(sut)).resolves.toEqual(PAGE);
      expect(inner.attempts).toHaveLength(3);
      expect(sut.circuitState).toBe('closed');
    });

    it('counts an answer the adapter cannot parse as a fault, without retrying it', async () => {
      const inner = new ScriptedAdapter().answer(garbage);
      const sut = gatewayOver(inner, { breakerThreshold: 2 });
      const events: OperationsCallEvent[] = [];
      sut.addObserver({ callFinished: (event) => events.push(event) });

      const error = await failureOf(sut.getProcessDetail('IMP-1'));
      expect(error).toBeInstanceOf(OperationsUnavailableError);
      expect(error).not.toBeInstanceOf(UpstreamAttemptError);
      expect(inner.attempts).toHaveLength(1);
      await failureOf(sut.getProcessDetail('IMP-1'));

      expect(sut.circuitState).toBe('open');
      expect(inner.attempts).toHaveLength(2);
      expect(events.map((event) => event.failure)).toEqual(['payload', 'payload']);
    });

    it('is not opened by failures that are not the upstream fault', async () => {
      const inner = new ScriptedAdapter().answer(fails(clientError()));
      const sut = gatewayOver(inner, { breakerThreshold: 2 });

      for (let call = 0; call < 4; call += 1) await failureOf(list(sut));

      expect(sut.circuitState).toBe('closed');
      expect(inner.attempts).toHaveLength(4);
    });
  });

  describe('retries', () => {
    it('retries a transient failure and succeeds', async () => {
      const inner = new ScriptedAdapter().answer(fails(transient()), fails(transient()), ok());
      const sut = gatewayOver(inner, { maxRetries: 2 });

      await expect(list(sut)).resolves.toEqual(PAGE);
      expect(inner.attempts).toHaveLength(3);
    });

    it('gives up after the configured retries', async () => {
      const inner = new ScriptedAdapter().answer(fails(transient()));
      const sut = gatewayOver(inner, { maxRetries: 2, breakerThreshold: 100 });

      await expect(list(sut)).rejects.toThrow('Operations system answered 503');
      expect(inner.attempts).toHaveLength(3);
    });

    it.each([
      ['a client error', clientError()],
      [
        'a non-transient fault',
        UpstreamAttemptError.payload('Operations system sent a body that is not JSON'),
      ],
      ['a bug in the adapter', new TypeError('x is undefined')],
    ])('does not retry %s', async (_name, error) => {
      const inner = new ScriptedAdapter().answer(fails(error));
      const sut = gatewayOver(inner, { maxRetries: 2 });

      await expect(list(sut)).rejects.toBeInstanceOf(OperationsUnavailableError);
      expect(inner.attempts).toHaveLength(1);
    });

    it('aborts a hanging attempt at its timeout and retries it, within the deadline', async () => {
      const inner = new ScriptedAdapter().answer(hangs, ok());
      const sut = gatewayOver(inner, { attemptTimeoutMs: 50, deadlineMs: 1000 });

      await expect(list(sut)).resolves.toEqual(PAGE);
      expect(inner.attempts).toHaveLength(2);
      expect(inner.attempts[0]?.signal.aborted).toBe(true);
    });
  });

  describe('failures', () => {
    it('fails within the deadline with a timeout', async () => {
      const inner = new ScriptedAdapter().answer(hangs);
      const sut = gatewayOver(inner, { attemptTimeoutMs: 50, deadlineMs: 120, maxRetries: 20 });

      const error = await failureOf(list(sut));

      expect(error).toBeInstanceOf(OperationsUnavailableError);
      expect((error as Error).message).toBe('Operations system did not answer in time');
    });

    it('says once what an unusable answer was', async () => {
      const inner = new ScriptedAdapter().answer(garbage);
      const sut = gatewayOver(inner);

      const error = await failureOf(sut.getProcessDetail('IMP-1'));

      expect((error as Error).message).toMatch(/^Operations system sent a malformed process detail \(/);
    });

    it('rejects calls beyond the bulkhead without calling the adapter', async () => {
      let release = () => {};
      const held = new Promise<void>((resolve) => (release = resolve));
      const inner = new ScriptedAdapter().answer(() => held.then(() => PAGE));
      const sut = gatewayOver(inner, { maxConcurrent: 1, maxQueued: 0 });

      const first = list(sut);
      const second = await failureOf(list(sut));
      release();

      await expect(first).resolves.toEqual(PAGE);
      expect((second as Error).message).toBe('Too many calls to the operations system waiting');
      expect(inner.attempts).toHaveLength(1);
    });

    it('reports each call once to its observers, with the bytes every attempt read', async () => {
      const inner = new ScriptedAdapter().answer(
        (attempt) => {
          attempt.countResponseBytes(10);
          return Promise.reject(transient());
        },
        (attempt) => {
          attempt.countResponseBytes(32);
          return Promise.resolve(PAGE);
        },
        ok(null),
        fails(clientError()),
      );
      const sut = gatewayOver(inner);
      const events: OperationsCallEvent[] = [];
      const remove = sut.addObserver({ callFinished: (event) => events.push(event) });

      await list(sut);
      await sut.getProcessDetail('IMP-2');
      await failureOf(sut.getProcessDetail('IMP-3'));
      remove();
      await failureOf(sut.getProcessDetail('IMP-4'));

      expect(
        events.map(({ operation, outcome, failure, responseBytes }) => [
          operation,
          outcome,
          failure,
          responseBytes,
        ]),
      ).toEqual([
        ['listChangedProcesses', 'success', null, 42],
        ['getProcessDetail', 'not-found', null, 0],
        ['getProcessDetail', 'failure', 'http-status', 0],
      ]);
    });

    it('reports each attempt, and each call the circuit refused, as one upstream request', async () => {
      const inner = new ScriptedAdapter().answer(fails(transient()), ok(), hangs, hangs, ok(null));
      const sut = gatewayOver(inner, { attemptTimeoutMs: 20, deadlineMs: 1000, breakerThreshold: 2 });
      const attempts: OperationsAttemptEvent[] = [];
      sut.addObserver({ attemptFinished: (event) => attempts.push(event) });

      await list(sut);
      await failureOf(sut.getProcessDetail('IMP-2'));

      expect(attempts.map(({ operation, outcome, failure }) => [operation, outcome, failure])).toEqual([
        ['listChangedProcesses', 'failure', 'http-status'],
        ['listChangedProcesses', 'success', null],
        ['getProcessDetail', 'failure', 'timeout'],
        ['getProcessDetail', 'failure', 'timeout'],
        ['getProcessDetail', 'failure', 'circuit-open'],
      ]);
    });
  });
});
