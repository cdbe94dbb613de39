import type { ChangeStreamLeases } from '../changes/change-stream-leases.js';

/**
 * What any {@link ChangeStreamLeases} does with a limit of 2: grants each user up to it, then
 * refuses that user (not another) until one of their leases is released.
 */
export async function expectTwoStreamsPerUser(leases: ChangeStreamLeases): Promise<void> {
  const first = await leases.acquire('acme');
  expect(first).not.toBeNull();
  expect(await leases.acquire('acme')).not.toBeNull();
  expect(await leases.acquire('acme')).toBeNull();
  expect(await leases.acquire('globex')).not.toBeNull();

  first?.release();
  expect(await leases.acquire('acme')).not.toBeNull();
  expect(await leases.acquire('acme')).toBeNull();
}
