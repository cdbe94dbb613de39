/**
 * Work that must be done before a gracefully shut down process exits, registered by code that
 * runs outside Nest's modules: the tracing SDK, started before them, exports the spans its batch
 * still holds (the last requests' spans would otherwise die with the process).
 */
const hooks: Array<() => Promise<void>> = [];

export function runBeforeExit(hook: () => Promise<void>): void {
  hooks.push(hook);
}

/** Runs every hook; one that fails does not keep the others from running, nor the process from exiting. */
export async function runExitHooks(): Promise<void> {
  await Promise.allSettled(hooks.map((hook) => hook()));
}
