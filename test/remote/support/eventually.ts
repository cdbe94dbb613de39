/** How often a bounded wait looks again. */
const POLL_EVERY_MS = 100;

/**
 * Polls `probe` every 100 ms until it answers something other than undefined, and returns that;
 * fails naming `what` once `withinMs` have passed since `since` (now unless given). The bound is
 * the documented one being checked, never a guess at how long something takes.
 */
export async function eventually<T>(
  what: string,
  withinMs: number,
  probe: () => Promise<T | undefined>,
  since = Date.now(),
): Promise<T> {
  const deadline = since + withinMs;
  for (;;) {
    const found = await probe();
    if (found !== undefined) return found;
    if (Date.now() >= deadline) throw new Error(`${what}: not seen within ${withinMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, POLL_EVERY_MS));
  }
}
