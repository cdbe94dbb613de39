import { jest } from '@jest/globals';
import type { Request, Response } from 'express';
import { ProblemException } from '../common/problems/problem.exception.js';
import { PROBLEM_TYPES } from '../common/problems/problem-types.js';
import { closeConnectionsWhileDraining } from './graceful-shutdown.js';
import { ShutdownState } from './shutdown.state.js';

describe(closeConnectionsWhileDraining.name, () => {
  function pass(state: ShutdownState) {
    const headers = new Map<string, string>();
    const response = { setHeader: (name: string, value: string) => headers.set(name, value) };
    const next = jest.fn<(error?: unknown) => void>();
    closeConnectionsWhileDraining(state)({} as Request, response as unknown as Response, next);
    return { headers, next };
  }

  it('lets a request through untouched while the service runs', () => {
    const { headers, next } = pass(new ShutdownState());

    expect(next).toHaveBeenCalledWith();
    expect(headers.size).toBe(0);
  });

  it('serves a request with Connection: close during the grace period', () => {
    const state = new ShutdownState();
    state.begin('SIGTERM');

    const { headers, next } = pass(state);

    expect(next).toHaveBeenCalledWith();
    expect(headers.get('Connection')).toBe('close');
  });

  it('refuses a request past the grace period: 503 with Retry-After and Connection: close', async () => {
    const state = new ShutdownState();
    state.begin('SIGTERM');
    state.refuseRequests();

    const { headers, next } = pass(state);
    await Promise.resolve();

    const [error] = next.mock.calls[0] ?? [];
    expect(error).toBeInstanceOf(ProblemException);
    expect((error as ProblemException).problem).toBe(PROBLEM_TYPES.serviceUnavailable);
    expect((error as ProblemException).problemOptions.headers).toEqual({ 'Retry-After': '1' });
    expect(headers.get('Connection')).toBe('close');
  });

  it('holds a refusal until the state lets it be answered (once the listener has closed)', async () => {
    const state = new ShutdownState();
    let answerRefusals = (): void => undefined;
    state.refuseRequests(new Promise<void>((resolve) => (answerRefusals = resolve)));

    const { headers, next } = pass(state);
    await new Promise(setImmediate);

    expect(next).not.toHaveBeenCalled();
    expect(headers.get('Connection')).toBe('close');
    answerRefusals();
    await Promise.resolve();
    expect(next.mock.calls[0]?.[0]).toBeInstanceOf(ProblemException);
  });
});
