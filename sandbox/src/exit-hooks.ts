/**
 * Work that must be done before the stopped sandbox exits, registered by code loaded before it
 * (`--import`): the tracing SDK exports the spans its batch still holds, which `process.exit`
 * would otherwise drop with the last requests' traces.
 */
const hooks: Array<() => Promise<void>> = [];

export function runBeforeExit(hook: () => Promise<void>): void {
  hooks.push(hook);
}

/** Runs every hook; one that fails keeps neither the others nor the exit from happening. */
export async function runExitHooks(): Promise<void> {
  await Promise.allSettled(hooks.map((hook) => hook()));
}
