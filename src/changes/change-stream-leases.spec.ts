import { expectTwoStreamsPerUser } from '../testing/stream-leases-contract.js';
import { MemoryChangeStreamLeases } from './change-stream-leases.js';

describe(MemoryChangeStreamLeases.name, () => {
  it('grants each user up to the limit, then refuses until one of theirs is released', async () => {
    await expectTwoStreamsPerUser(new MemoryChangeStreamLeases(2));
  });

  it('counts a lease released twice once', async () => {
    const sut = new MemoryChangeStreamLeases(2);
    const first = await sut.acquire('acme');
    await sut.acquire('acme');

    first?.release();
    first?.release();

    expect(await sut.acquire('acme')).not.toBeNull();
    expect(await sut.acquire('acme')).toBeNull();
  });
});
