import { AsyncLocalStorage } from 'node:async_hooks';

const context = new AsyncLocalStorage<{ requestId: string }>();

/** Runs the rest of a request's handling with its id, for every log line made meanwhile. */
export function runWithRequestId(requestId: string, next: () => void): void {
  context.run({ requestId }, next);
}

export function currentRequestId(): string | undefined {
  return context.getStore()?.requestId;
}
